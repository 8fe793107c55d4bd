package io.parry.server;

/**
 * How early an {@link Overload} sheds a route's requests: sheddable routes first, critical ones
 * last, exempt ones (health checks) never.
 */
public enum Priority {
    /** Shed last: at 1.25 times each threshold (requests in flight included). */
    CRITICAL(1.25),
    /** Shed at the thresholds. */
    NORMAL(1.0),
    /** Shed first: at 0.75 times each threshold. */
    SHEDDABLE(0.75),
    /** Never shed, and not counted in flight: health and readiness checks. */
    EXEMPT(Double.POSITIVE_INFINITY);

    private final double fraction;

    Priority(double fraction) {
        this.fraction = fraction;
    }

    /** The share of each threshold at which this priority's requests are shed. */
    public double fraction() {
        return fraction;
    }
}
