package io.parry.proxy;

/** The state of an endpoint's circuit breaker. */
public enum BreakerState {
    /** Calls pass and are counted. */
    CLOSED,
    /** Calls are refused; the endpoint is skipped. */
    OPEN,
    /** A few trial calls pass to decide whether to close again. */
    HALF_OPEN,
    /** Breakers are disabled for the upstream. */
    DISABLED
}
