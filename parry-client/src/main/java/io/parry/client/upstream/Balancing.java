package io.parry.client.upstream;

/** How an upstream picks an endpoint for a call, among the endpoints that are healthy and eligible. */
public enum Balancing {
    /** Each endpoint in turn: a shared cursor over the eligible endpoints. */
    ROUND_ROBIN,
    /**
     * Each endpoint in proportion to its {@link io.parry.client.Endpoint#weight() weight}, smoothly
     * interleaved as in NGINX: weights 5, 1, 1 give {@code a a b a c a a}. Picks that fall on an
     * ineligible endpoint go to the eligible ones in proportion to their weights.
     */
    WEIGHTED_ROUND_ROBIN,
    /** The endpoint with the fewest calls in flight; ties go to each tied endpoint in turn. */
    LEAST_OUTSTANDING,
    /**
     * Two distinct endpoints at random, then the one with fewer calls in flight: nearly as even as
     * least outstanding without every caller herding onto the same endpoint.
     */
    POWER_OF_TWO_CHOICES
}
