package io.parry.client.internal;

import java.time.Duration;

/** Converts timeouts for arithmetic on {@link System#nanoTime()}. */
final class Durations {
    /** About 146 years: far enough to mean never, near enough that adding it to a nano time cannot overflow. */
    private static final long MAX_NANOS = Long.MAX_VALUE / 2;

    private static final Duration MAX = Duration.ofNanos(MAX_NANOS);

    private Durations() {}

    /** The duration in nanoseconds, capped instead of overflowing; 0 stays 0 (disabled). */
    static long nanos(Duration duration) {
        return duration.compareTo(MAX) >= 0 ? MAX_NANOS : duration.toNanos();
    }
}
