package io.parry.gateway.internal.config;

import java.time.Duration;

/** Durations as the configuration writes them: a whole number and a unit, {@code 250ms}, {@code 10s}, {@code 2m}, {@code 1h}; or {@code 0}. */
final class DurationText {
    static final String EXPECTED = "a duration such as 250ms, 10s, 2m or 1h";

    private DurationText() {}

    /** The duration, or {@code null} if the text is not one. */
    static Duration parse(String text) {
        if (text.equals("0")) {
            return Duration.ZERO;
        }
        int digits = 0;
        while (digits < text.length() && Character.isDigit(text.charAt(digits))) {
            digits++;
        }
        if (digits == 0 || digits > 12) {
            return null;
        }
        long amount = Long.parseLong(text.substring(0, digits));
        switch (text.substring(digits)) {
            case "ms":
                return Duration.ofMillis(amount);
            case "s":
                return Duration.ofSeconds(amount);
            case "m":
                return Duration.ofMinutes(amount);
            case "h":
                return Duration.ofHours(amount);
            default:
                return null;
        }
    }

    /** The duration the way the configuration writes it, in its largest whole unit. */
    static String format(Duration duration) {
        long millis = duration.toMillis();
        if (millis != 0 && millis % 3_600_000 == 0) {
            return millis / 3_600_000 + "h";
        }
        if (millis != 0 && millis % 60_000 == 0) {
            return millis / 60_000 + "m";
        }
        return millis % 1000 == 0 ? millis / 1000 + "s" : millis + "ms";
    }
}
