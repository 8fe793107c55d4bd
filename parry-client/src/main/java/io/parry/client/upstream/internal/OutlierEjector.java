package io.parry.client.upstream.internal;

import io.parry.client.upstream.OutlierDetection;
import java.time.Duration;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Passive outlier detection for one group: counts call outcomes and ejects an endpoint after too
 * many failures in a row, within the group's ejection budget. Thread-safe and lock-free.
 */
public final class OutlierEjector {
    private static final Logger log = LoggerFactory.getLogger("io.parry.client.upstream");

    // Far enough below overflow that a deadline computed from System.nanoTime() still compares correctly.
    private static final long LONGEST_EJECTION_NANOS = Long.MAX_VALUE / 4;

    private final String upstream;
    private final OutlierDetection detection;
    private final EndpointState[] states;
    private final AtomicInteger ejected;
    private final int maxEjected;
    private final long ejectionNanos;
    private final long maxEjectionNanos;

    /** An ejector for the group; {@code ejected} is the count its endpoint states share. */
    public OutlierEjector(String upstream, OutlierDetection detection, EndpointState[] states, AtomicInteger ejected) {
        this.upstream = upstream;
        this.detection = detection;
        this.states = states;
        this.ejected = ejected;
        this.maxEjected = Math.min(states.length - 1, states.length * detection.maxEjectionPercent() / 100);
        this.ejectionNanos = nanos(detection.ejectionTime());
        this.maxEjectionNanos = nanos(detection.maxEjectionTime());
    }

    public void onSuccess(EndpointState state) {
        state.recordSuccess();
    }

    public void onFailure(EndpointState state) {
        if (state.recordFailure() >= detection.consecutiveFailures() && maxEjected > 0) {
            tryEject(state);
        }
    }

    /**
     * Ends the ejections of endpoints whose health checks pass if no endpoint is healthy any more,
     * so that health checks failing elsewhere never leave the group with nothing to call.
     */
    public void releaseIfNoneHealthy() {
        for (EndpointState state : states) {
            if (state.isHealthy()) {
                return;
            }
        }
        for (EndpointState state : states) {
            if (state.isCheckPassing() && state.isEjected()) {
                state.endEjection();
                log.info(
                        "upstream {}: ejection of {} ended early: no other endpoint is healthy",
                        upstream,
                        state.endpoint());
            }
        }
    }

    /** How long the next ejection of an endpoint ejected this many times in a row already lasts, in nanoseconds. */
    long ejectionNanos(int previousEjections) {
        long nanos = ejectionNanos;
        for (int i = 0; i < previousEjections && nanos < maxEjectionNanos; i++) {
            nanos *= 2;
        }
        return Math.min(nanos, maxEjectionNanos);
    }

    private void tryEject(EndpointState state) {
        if (!hasOtherHealthy(state) || !reserveEjection()) {
            return;
        }
        long nanos = ejectionNanos(state.consecutiveEjections());
        if (!state.eject(System.nanoTime() + nanos)) {
            ejected.decrementAndGet();
            return;
        }
        if (!hasOtherHealthy(state)) {
            // The others went down while this was being ejected: never leave the group with nothing to call.
            state.endEjection();
            return;
        }
        log.info(
                "upstream {}: ejected {} for {} ms (failed calls in a row: {})",
                upstream,
                state.endpoint(),
                TimeUnit.NANOSECONDS.toMillis(nanos),
                detection.consecutiveFailures());
    }

    /** Whether another endpoint is healthy, after ending the ejections whose time is up so they free the budget. */
    private boolean hasOtherHealthy(EndpointState candidate) {
        for (EndpointState state : states) {
            state.isEjected();
        }
        for (EndpointState state : states) {
            if (state != candidate && state.isHealthy()) {
                return true;
            }
        }
        return false;
    }

    private boolean reserveEjection() {
        for (int count = ejected.get(); count < maxEjected; count = ejected.get()) {
            if (ejected.compareAndSet(count, count + 1)) {
                return true;
            }
        }
        return false;
    }

    private static long nanos(Duration duration) {
        return Math.min(TimeUnit.NANOSECONDS.convert(duration), LONGEST_EJECTION_NANOS);
    }
}
