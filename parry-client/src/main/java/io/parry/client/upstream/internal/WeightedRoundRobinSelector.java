package io.parry.client.upstream.internal;

import io.parry.client.Endpoint;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.Predicate;

/**
 * NGINX's smooth weighted round robin, computed once into a schedule of endpoint indexes that an
 * atomic counter walks, so selecting takes no lock. A turn that falls on an endpoint that is not
 * selectable goes to the selectable ones in proportion to their weights, taking turns by a second
 * counter; simply moving to the next entry would hand all of an ejected endpoint's turns to
 * whichever endpoint follows it in the schedule.
 */
final class WeightedRoundRobinSelector implements EndpointSelector {
    /** The longest schedule; heavier weights are scaled down to fit, which keeps their ratios roughly. */
    static final int MAX_SCHEDULE = 1 << 16;

    private final EndpointState[] states;
    private final int[] weights;
    private final int[] schedule;
    private final AtomicInteger turn = new AtomicInteger();
    private final AtomicLong fallbackTurn = new AtomicLong();

    WeightedRoundRobinSelector(EndpointState[] states) {
        this.states = states;
        this.weights = reducedWeights(states);
        this.schedule = smoothSchedule(weights);
    }

    @Override
    public int select(Predicate<Endpoint> eligible) {
        int index = schedule[Math.floorMod(turn.getAndIncrement(), schedule.length)];
        return states[index].isSelectable(eligible) ? index : selectByWeight(eligible);
    }

    private int selectByWeight(Predicate<Endpoint> eligible) {
        long total = 0;
        for (int i = 0; i < states.length; i++) {
            if (states[i].isSelectable(eligible)) {
                total += weights[i];
            }
        }
        if (total == 0) {
            return -1;
        }
        long remaining = Math.floorMod(fallbackTurn.getAndIncrement(), total);
        int last = -1;
        for (int i = 0; i < states.length; i++) {
            if (states[i].isSelectable(eligible)) {
                remaining -= weights[i];
                if (remaining < 0) {
                    return i;
                }
                last = i;
            }
        }
        // Fewer endpoints are selectable than a moment ago.
        return last;
    }

    /** The weights divided by their greatest common divisor, and scaled down if their sum is too long a schedule. */
    static int[] reducedWeights(EndpointState[] states) {
        int gcd = 0;
        for (EndpointState state : states) {
            gcd = gcd(gcd, state.endpoint().weight());
        }
        int[] weights = new int[states.length];
        long sum = 0;
        for (int i = 0; i < states.length; i++) {
            weights[i] = states[i].endpoint().weight() / gcd;
            sum += weights[i];
        }
        if (sum > MAX_SCHEDULE) {
            for (int i = 0; i < weights.length; i++) {
                weights[i] = (int) Math.max(1, weights[i] * (long) MAX_SCHEDULE / sum);
            }
        }
        return weights;
    }

    /**
     * One cycle of smooth weighted round robin: each step adds every weight to its endpoint's current
     * value, picks the largest (the first on ties) and subtracts the total from it.
     */
    static int[] smoothSchedule(int[] weights) {
        int total = 0;
        for (int weight : weights) {
            total += weight;
        }
        int[] schedule = new int[total];
        long[] current = new long[weights.length];
        for (int step = 0; step < total; step++) {
            int best = 0;
            for (int i = 0; i < weights.length; i++) {
                current[i] += weights[i];
                if (current[i] > current[best]) {
                    best = i;
                }
            }
            current[best] -= total;
            schedule[step] = best;
        }
        return schedule;
    }

    private static int gcd(int a, int b) {
        return b == 0 ? a : gcd(b, a % b);
    }
}
