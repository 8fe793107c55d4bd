package io.parry.client.upstream.internal;

import io.parry.client.Endpoint;
import io.parry.client.upstream.EndpointStatus;
import java.util.Optional;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.Predicate;

/**
 * The live state of one endpoint in a group: calls in flight, failures in a row, ejection and health
 * check results. Lock-free; the health check fields are written only by the endpoint's single check
 * in flight.
 */
public final class EndpointState {
    private static final long NOT_EJECTED = Long.MIN_VALUE;

    private final Endpoint endpoint;
    private final Optional<Endpoint> selection;
    private final AtomicInteger groupEjected;
    private final AtomicInteger inFlight = new AtomicInteger();
    private final AtomicInteger consecutiveFailures = new AtomicInteger();
    private final AtomicInteger consecutiveEjections = new AtomicInteger();
    private final AtomicLong ejectedUntil = new AtomicLong(NOT_EJECTED);
    private final AtomicBoolean checking = new AtomicBoolean();
    private volatile boolean checkPassing = true;
    private int checkStreak;

    /**
     * State for the endpoint; {@code groupEjected} counts the group's ejected endpoints and is
     * decremented here when an ejection ends.
     */
    public EndpointState(Endpoint endpoint, AtomicInteger groupEjected) {
        this.endpoint = endpoint;
        this.selection = Optional.of(endpoint);
        this.groupEjected = groupEjected;
    }

    public Endpoint endpoint() {
        return endpoint;
    }

    /** The endpoint as a select() result, made once so selecting allocates nothing. */
    public Optional<Endpoint> selection() {
        return selection;
    }

    public boolean isSelectable(Predicate<Endpoint> eligible) {
        return isHealthy() && eligible.test(endpoint);
    }

    public boolean isHealthy() {
        return checkPassing && !isEjected();
    }

    /** Whether the endpoint is ejected now; an ejection whose time is up ends here, lazily. */
    public boolean isEjected() {
        long until = ejectedUntil.get();
        if (until == NOT_EJECTED) {
            return false;
        }
        if (System.nanoTime() - until < 0) {
            return true;
        }
        endEjection(until);
        return false;
    }

    public boolean isCheckPassing() {
        return checkPassing;
    }

    public int inFlight() {
        return inFlight.get();
    }

    public void callStarted() {
        inFlight.incrementAndGet();
    }

    public void callEnded() {
        inFlight.decrementAndGet();
    }

    public int consecutiveFailures() {
        return consecutiveFailures.get();
    }

    /** The ejections since the last successful call, which double the next ejection's time. */
    public int consecutiveEjections() {
        return consecutiveEjections.get();
    }

    /** Counts a failed call and returns the failures in a row; failures while ejected are not counted. */
    public int recordFailure() {
        return isEjected() ? 0 : consecutiveFailures.incrementAndGet();
    }

    public void recordSuccess() {
        // Reads before writes: most calls succeed, and a write would bounce the cache line between cores.
        if (consecutiveFailures.get() != 0) {
            consecutiveFailures.set(0);
        }
        if (consecutiveEjections.get() != 0) {
            consecutiveEjections.set(0);
        }
    }

    /**
     * Ejects the endpoint until the {@link System#nanoTime()} deadline, unless it is ejected already;
     * the caller has counted it in the group's ejected endpoints and must uncount it if this fails.
     */
    public boolean eject(long deadline) {
        long until = deadline == NOT_EJECTED ? deadline + 1 : deadline;
        if (!ejectedUntil.compareAndSet(NOT_EJECTED, until)) {
            return false;
        }
        consecutiveFailures.set(0);
        consecutiveEjections.incrementAndGet();
        return true;
    }

    /** Ends an ejection now, if there is one. */
    public void endEjection() {
        long until = ejectedUntil.get();
        if (until != NOT_EJECTED) {
            endEjection(until);
        }
    }

    private void endEjection(long until) {
        if (ejectedUntil.compareAndSet(until, NOT_EJECTED)) {
            groupEjected.decrementAndGet();
        }
    }

    /** Claims the endpoint's single health check slot; false while a check is in flight. */
    public boolean tryStartCheck() {
        return checking.compareAndSet(false, true);
    }

    /**
     * Records the outcome of the check in flight and frees the slot.
     *
     * @return whether the endpoint's check state changed (read it with {@link #isCheckPassing()})
     */
    public boolean finishCheck(boolean passed, int healthyThreshold, int unhealthyThreshold) {
        boolean changed = false;
        if (passed == checkPassing) {
            checkStreak = 0;
        } else if (++checkStreak >= (passed ? healthyThreshold : unhealthyThreshold)) {
            checkPassing = passed;
            checkStreak = 0;
            changed = true;
        }
        // Frees the slot last, so the next check sees this one's writes.
        checking.set(false);
        return changed;
    }

    public EndpointStatus status() {
        boolean ejected = isEjected();
        boolean passing = checkPassing;
        return new EndpointStatus(
                endpoint, passing && !ejected, ejected, passing, inFlight.get(), consecutiveFailures.get());
    }
}
