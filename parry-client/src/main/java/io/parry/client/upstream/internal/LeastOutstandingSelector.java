package io.parry.client.upstream.internal;

import io.parry.client.Endpoint;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Predicate;

/**
 * The selectable endpoint with the fewest calls in flight. Ties take turns by a cursor over the tied
 * endpoints, so idle endpoints get a round robin; starting each scan one further on instead would
 * favour an endpoint that follows a busy one.
 */
final class LeastOutstandingSelector implements EndpointSelector {
    private final EndpointState[] states;
    private final AtomicInteger cursor = new AtomicInteger();

    LeastOutstandingSelector(EndpointState[] states) {
        this.states = states;
    }

    @Override
    public int select(Predicate<Endpoint> eligible) {
        int best = -1;
        int fewest = Integer.MAX_VALUE;
        int tied = 0;
        for (int i = 0; i < states.length; i++) {
            EndpointState state = states[i];
            if (state.isSelectable(eligible)) {
                int inFlight = state.inFlight();
                if (inFlight < fewest) {
                    best = i;
                    fewest = inFlight;
                    tied = 1;
                } else if (inFlight == fewest) {
                    tied++;
                }
            }
        }
        return tied <= 1 ? best : nthWithAtMost(eligible, fewest, Math.floorMod(cursor.getAndIncrement(), tied), best);
    }

    /** The selectable endpoint of this rank among those with at most {@code inFlight} calls, else {@code fallback}. */
    private int nthWithAtMost(Predicate<Endpoint> eligible, int inFlight, int rank, int fallback) {
        int remaining = rank;
        for (int i = 0; i < states.length; i++) {
            EndpointState state = states[i];
            if (state.isSelectable(eligible) && state.inFlight() <= inFlight && remaining-- == 0) {
                return i;
            }
        }
        // Calls started or endpoints left since the first scan.
        return fallback;
    }
}
