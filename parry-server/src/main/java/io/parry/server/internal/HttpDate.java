package io.parry.server.internal;

import io.netty.util.AsciiString;
import java.time.Instant;
import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;
import java.util.Locale;

/**
 * The {@code Date} field value (IMF-fixdate, RFC 9110, section 5.6.7), formatted at most once a
 * second. Threads race benignly to refresh it: the holder is immutable and published through a
 * volatile field, so readers never lock.
 */
final class HttpDate {
    private static final DateTimeFormatter IMF_FIXDATE = DateTimeFormatter.ofPattern(
                    "EEE, dd MMM yyyy HH:mm:ss 'GMT'", Locale.ENGLISH)
            .withZone(ZoneOffset.UTC);

    private static volatile Stamp stamp = new Stamp(-1, AsciiString.EMPTY_STRING);

    private HttpDate() {}

    static AsciiString now() {
        long second = System.currentTimeMillis() / 1000;
        Stamp current = stamp;
        if (current.second != second) {
            current = new Stamp(second, new AsciiString(IMF_FIXDATE.format(Instant.ofEpochSecond(second))));
            stamp = current;
        }
        return current.value;
    }

    private static final class Stamp {
        final long second;
        final AsciiString value;

        Stamp(long second, AsciiString value) {
            this.second = second;
            this.value = value;
        }
    }
}
