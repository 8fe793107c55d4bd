package io.parry.gateway.internal.admin;

import java.time.Duration;

/** Durations as the configuration file writes them: {@code 250ms}, {@code 10s}. */
final class Durations {
    private Durations() {}

    static String format(Duration duration) {
        if (duration == null) {
            return null;
        }
        long millis = duration.toMillis();
        return millis % 1000 == 0 ? millis / 1000 + "s" : millis + "ms";
    }
}
