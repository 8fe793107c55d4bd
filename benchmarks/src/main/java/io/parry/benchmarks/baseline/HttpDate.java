package io.parry.benchmarks.baseline;

import io.netty.handler.codec.DateFormatter;
import io.netty.util.AsciiString;
import java.util.Date;

/**
 * The value of the {@code Date} response header, formatted at most once per second.
 *
 * <p>RFC 9110 section 6.6.1 wants one-second resolution, so formatting per response would be wasted work. Any thread
 * may call {@link #now()}; a race merely formats the same second twice.
 */
final class HttpDate {
    private static volatile Stamp current = new Stamp(-1, AsciiString.EMPTY_STRING);

    private HttpDate() {}

    /** Returns the current date in IMF-fixdate form, for example {@code Sun, 06 Nov 1994 08:49:37 GMT}. */
    static AsciiString now() {
        long millis = System.currentTimeMillis();
        long second = millis / 1000;
        Stamp stamp = current;
        if (stamp.second() != second) {
            stamp = new Stamp(second, new AsciiString(DateFormatter.format(new Date(second * 1000))));
            current = stamp;
        }
        return stamp.value();
    }

    private record Stamp(long second, AsciiString value) {}
}
