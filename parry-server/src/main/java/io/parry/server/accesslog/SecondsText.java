package io.parry.server.accesslog;

import java.time.Instant;
import java.time.format.DateTimeFormatter;

/**
 * A time formatter's text for whole seconds, kept for the second formatted last: a busy log writes
 * thousands of lines a second, and a {@link DateTimeFormatter} run per line cost more than the rest of
 * the line. Safe to share: the kept second is an immutable pair read and replaced as one reference.
 */
final class SecondsText {
    private final DateTimeFormatter formatter;
    private Kept kept = new Kept(Long.MIN_VALUE, "");

    /** {@code formatter} must print nothing finer than seconds and have a zone. */
    SecondsText(DateTimeFormatter formatter) {
        this.formatter = formatter;
    }

    /** Appends the text of {@code time}'s second. */
    StringBuilder append(Instant time, StringBuilder out) {
        long second = time.getEpochSecond();
        Kept current = kept;
        if (current.second != second) {
            current = new Kept(second, formatter.format(Instant.ofEpochSecond(second)));
            kept = current;
        }
        return out.append(current.text);
    }

    /** Appends {@code time}'s milliseconds within its second, always three digits. */
    static StringBuilder appendMillis(Instant time, StringBuilder out) {
        int millis = time.getNano() / 1_000_000;
        if (millis < 100) {
            out.append('0');
        }
        if (millis < 10) {
            out.append('0');
        }
        return out.append(millis);
    }

    private static final class Kept {
        final long second;
        final String text;

        Kept(long second, String text) {
            this.second = second;
            this.text = text;
        }
    }
}
