package io.parry.client.upstream.internal;

import io.parry.client.Endpoint;
import java.util.function.Predicate;

/** Counting and indexing the selectable endpoints of a group, without allocating. */
final class Candidates {
    private Candidates() {}

    static int count(EndpointState[] states, Predicate<Endpoint> eligible) {
        int count = 0;
        for (EndpointState state : states) {
            if (state.isSelectable(eligible)) {
                count++;
            }
        }
        return count;
    }

    /**
     * The index of the selectable endpoint of this rank (from 0), or of the first selectable one if
     * fewer are selectable now than when the caller counted; -1 if none is.
     */
    static int nth(EndpointState[] states, Predicate<Endpoint> eligible, int rank) {
        int first = -1;
        int remaining = rank;
        for (int i = 0; i < states.length; i++) {
            if (states[i].isSelectable(eligible)) {
                if (remaining-- == 0) {
                    return i;
                }
                if (first < 0) {
                    first = i;
                }
            }
        }
        return first;
    }
}
