package io.parry.ratelimit;

/**
 * Told what a {@link RateLimitFilter} decided, for metrics ({@code parry-micrometer}'s {@code
 * RateLimitMetrics}) and logs. {@code name} is the filter's name, a route's as a rule: never the key,
 * whose values are unbounded.
 *
 * <p>Called on the request's event loop; must be quick and never block. Every method has a no-op default.
 */
public interface RateLimitObserver {
    /** An observer that does nothing: the default. */
    RateLimitObserver NONE = new RateLimitObserver() {};

    /** A request took a token and passed. */
    default void allowed(String name) {}

    /** A request found its bucket empty and was answered 429. */
    default void limited(String name) {}

    /** The limiter could not decide (a shared store down or slow) and its failure policy refused the request. */
    default void failed(String name) {}
}
