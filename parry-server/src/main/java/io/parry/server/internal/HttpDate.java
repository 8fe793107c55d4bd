package io.parry.server.internal;

import io.netty.util.AsciiString;

/**
 * The {@code Date} field value (IMF-fixdate, RFC 9110, section 5.6.7), formatted at most once a
 * second. Threads race benignly to refresh it: the holder is immutable and published through a
 * volatile field, so readers never lock. Formatted by hand because the fixed format needs no locale
 * data, and {@code DateTimeFormatter} loads it at a cost the first request would pay.
 *
 * <p>The value holds for the {@link System#nanoTime()} span its second covers, so a response written
 * during a read takes it from the read's one clock reading ({@link #at}) instead of reading the wall
 * clock again. The span is measured from the wall clock when the value is made: after a clock step the
 * value is off by at most a second, which the field's "best available approximation" allows (RFC 9110,
 * section 6.6.1).
 */
final class HttpDate {
    private static final String[] DAYS = {"Thu", "Fri", "Sat", "Sun", "Mon", "Tue", "Wed"};
    private static final String[] MONTHS = {
        "Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec"
    };

    private static final long NANOS_PER_MILLI = 1_000_000;
    private static final long NANOS_PER_SECOND = 1_000_000_000;

    private static volatile Stamp stamp = new Stamp(-1, AsciiString.EMPTY_STRING, 0, 0);

    private HttpDate() {}

    static AsciiString now() {
        return at(System.nanoTime());
    }

    /** The value at {@code nanos}, a recent {@link System#nanoTime()} reading (a read's, say). */
    static AsciiString at(long nanos) {
        Stamp current = stamp;
        if (nanos - current.fromNanos >= 0 && nanos - current.untilNanos < 0) {
            return current.value;
        }
        return refresh();
    }

    /** Reads both clocks afresh, so that a stale reading passed to {@link #at} cannot shift the span. */
    private static AsciiString refresh() {
        long millis = System.currentTimeMillis();
        long nanos = System.nanoTime();
        long second = Math.floorDiv(millis, 1000);
        Stamp current = stamp;
        AsciiString value = current.second == second ? current.value : new AsciiString(format(second));
        long from = nanos - Math.floorMod(millis, 1000) * NANOS_PER_MILLI;
        stamp = new Stamp(second, value, from, from + NANOS_PER_SECOND);
        return value;
    }

    /** Formats seconds since the epoch, for example {@code Sun, 06 Nov 1994 08:49:37 GMT}. */
    static String format(long epochSecond) {
        long days = Math.floorDiv(epochSecond, 86_400);
        int secondOfDay = Math.floorMod(epochSecond, 86_400);
        StringBuilder text =
                new StringBuilder(29).append(DAYS[Math.floorMod(days, 7)]).append(", ");
        appendCivilDate(text, days);
        text.append(' ');
        twoDigits(text, secondOfDay / 3600).append(':');
        twoDigits(text, secondOfDay / 60 % 60).append(':');
        return twoDigits(text, secondOfDay % 60).append(" GMT").toString();
    }

    /** Days since 1970-01-01 to {@code dd Mon yyyy}, by Howard Hinnant's civil-from-days algorithm. */
    private static void appendCivilDate(StringBuilder text, long days) {
        long z = days + 719_468;
        long era = Math.floorDiv(z, 146_097);
        long dayOfEra = z - era * 146_097;
        long yearOfEra = (dayOfEra - dayOfEra / 1460 + dayOfEra / 36_524 - dayOfEra / 146_096) / 365;
        long dayOfYear = dayOfEra - (365 * yearOfEra + yearOfEra / 4 - yearOfEra / 100);
        long shiftedMonth = (5 * dayOfYear + 2) / 153;
        int day = (int) (dayOfYear - (153 * shiftedMonth + 2) / 5 + 1);
        int month = (int) (shiftedMonth < 10 ? shiftedMonth + 3 : shiftedMonth - 9);
        long year = yearOfEra + era * 400 + (month <= 2 ? 1 : 0);
        twoDigits(text, day).append(' ').append(MONTHS[month - 1]).append(' ').append(year);
    }

    private static StringBuilder twoDigits(StringBuilder text, int value) {
        return text.append((char) ('0' + value / 10)).append((char) ('0' + value % 10));
    }

    private static final class Stamp {
        final long second;
        final AsciiString value;
        /** The {@link System#nanoTime()} span of {@link #second}: from inclusive, until exclusive. */
        final long fromNanos;

        final long untilNanos;

        Stamp(long second, AsciiString value, long fromNanos, long untilNanos) {
            this.second = second;
            this.value = value;
            this.fromNanos = fromNanos;
            this.untilNanos = untilNanos;
        }
    }
}
