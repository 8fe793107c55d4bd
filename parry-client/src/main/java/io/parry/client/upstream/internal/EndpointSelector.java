package io.parry.client.upstream.internal;

import io.parry.client.Endpoint;
import io.parry.client.upstream.Balancing;
import java.util.function.Predicate;

/** Picks an endpoint of a group by one {@link Balancing} strategy; thread-safe, lock-free, allocation-free. */
public interface EndpointSelector {

    /** The selector of the strategy over these endpoints, which it keeps (not a copy). */
    static EndpointSelector of(Balancing balancing, EndpointState[] states) {
        return switch (balancing) {
            case ROUND_ROBIN -> new RoundRobinSelector(states);
            case WEIGHTED_ROUND_ROBIN -> new WeightedRoundRobinSelector(states);
            case LEAST_OUTSTANDING -> new LeastOutstandingSelector(states);
            case POWER_OF_TWO_CHOICES -> new PowerOfTwoChoicesSelector(states);
        };
    }

    /**
     * The index of the endpoint for the next call among those {@linkplain
     * EndpointState#isSelectable selectable} with {@code eligible}, or -1 if there is none.
     */
    int select(Predicate<Endpoint> eligible);
}
