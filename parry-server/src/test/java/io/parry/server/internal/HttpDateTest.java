package io.parry.server.internal;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import java.time.Instant;
import java.time.ZonedDateTime;
import java.time.format.DateTimeFormatter;
import org.junit.jupiter.api.Test;

class HttpDateTest {
    /** IMF-fixdate (RFC 9110, section 5.6.7): {@code Sun, 06 Nov 1994 08:49:37 GMT}, always two-digit days. */
    private static final String IMF_FIXDATE = "(Mon|Tue|Wed|Thu|Fri|Sat|Sun), [0-3][0-9] "
            + "(Jan|Feb|Mar|Apr|May|Jun|Jul|Aug|Sep|Oct|Nov|Dec) [0-9]{4} [0-2][0-9]:[0-5][0-9]:[0-6][0-9] GMT";

    @Test
    void formatsTheCurrentTimeAsImfFixdate() {
        Instant before = Instant.now();
        String date = HttpDate.now().toString();
        Instant after = Instant.now();

        assertThat(date).matches(IMF_FIXDATE);
        Instant parsed =
                ZonedDateTime.parse(date, DateTimeFormatter.RFC_1123_DATE_TIME).toInstant();
        assertThat(parsed).isBetween(before.minus(Duration.ofSeconds(1)), after.plus(Duration.ofSeconds(1)));
    }

    @Test
    void returnsTheSameValueWithinOneSecond() {
        for (int attempt = 0; attempt < 10; attempt++) {
            long secondBefore = System.currentTimeMillis() / 1000;
            CharSequence first = HttpDate.now();
            CharSequence second = HttpDate.now();
            if (System.currentTimeMillis() / 1000 == secondBefore) {
                assertThat(second).isSameAs(first);
                return;
            }
        }
        throw new AssertionError("the clock crossed a second boundary in each of ten attempts");
    }
}
