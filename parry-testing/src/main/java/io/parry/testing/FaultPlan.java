package io.parry.testing;

/**
 * Which fault a {@link FaultyUpstream} answers with: the next {@code remaining} requests get
 * {@code first}, later ones {@code then}. Immutable, so it can be swapped atomically.
 */
record FaultPlan(Fault first, int remaining, Fault then) {
    static FaultPlan always(Fault fault) {
        return new FaultPlan(fault, 0, fault);
    }

    /** The fault for the request being answered now. */
    Fault current() {
        return remaining > 0 ? first : then;
    }

    /** The plan once the current request has its fault. */
    FaultPlan afterOne() {
        return remaining > 0 ? new FaultPlan(first, remaining - 1, then) : this;
    }

    @Override
    public String toString() {
        return remaining > 0 ? first + " for " + remaining + " requests, then " + then : then.toString();
    }
}
