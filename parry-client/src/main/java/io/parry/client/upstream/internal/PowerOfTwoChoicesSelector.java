package io.parry.client.upstream.internal;

import io.parry.client.Endpoint;
import java.util.concurrent.ThreadLocalRandom;
import java.util.function.Predicate;

/** Two distinct selectable endpoints at random, then the one with fewer calls in flight. */
final class PowerOfTwoChoicesSelector implements EndpointSelector {
    private final EndpointState[] states;

    PowerOfTwoChoicesSelector(EndpointState[] states) {
        this.states = states;
    }

    @Override
    public int select(Predicate<Endpoint> eligible) {
        int selectable = Candidates.count(states, eligible);
        if (selectable <= 1) {
            return selectable == 0 ? -1 : Candidates.nth(states, eligible, 0);
        }
        ThreadLocalRandom random = ThreadLocalRandom.current();
        int firstRank = random.nextInt(selectable);
        int secondRank = random.nextInt(selectable - 1);
        if (secondRank >= firstRank) {
            secondRank++;
        }
        int first = -1;
        int second = -1;
        int rank = 0;
        for (int i = 0; i < states.length && (first < 0 || second < 0); i++) {
            if (states[i].isSelectable(eligible)) {
                if (rank == firstRank) {
                    first = i;
                } else if (rank == secondRank) {
                    second = i;
                }
                rank++;
            }
        }
        if (first < 0 || second < 0) {
            // Fewer endpoints are selectable than a moment ago.
            return Candidates.nth(states, eligible, 0);
        }
        return states[second].inFlight() < states[first].inFlight() ? second : first;
    }
}
