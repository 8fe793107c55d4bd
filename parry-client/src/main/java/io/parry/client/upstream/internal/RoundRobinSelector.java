package io.parry.client.upstream.internal;

import io.parry.client.Endpoint;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Predicate;

/**
 * A cursor over the selectable endpoints. The cursor indexes the selectable ones, not all of them,
 * so an ejected endpoint's turns are shared evenly rather than all going to its neighbour.
 */
final class RoundRobinSelector implements EndpointSelector {
    private final EndpointState[] states;
    private final AtomicInteger cursor = new AtomicInteger();

    RoundRobinSelector(EndpointState[] states) {
        this.states = states;
    }

    @Override
    public int select(Predicate<Endpoint> eligible) {
        int selectable = Candidates.count(states, eligible);
        if (selectable == 0) {
            return -1;
        }
        int rank = Math.floorMod(cursor.getAndIncrement(), selectable);
        return selectable == states.length ? rank : Candidates.nth(states, eligible, rank);
    }
}
