package io.parry.server.internal;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import java.time.Instant;
import java.time.ZoneOffset;
import java.time.ZonedDateTime;
import java.time.format.DateTimeFormatter;
import java.util.Locale;
import java.util.Random;
import java.util.function.Supplier;
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
        assertSameValueWithinOneSecond(HttpDate::now);
    }

    @Test
    void takesTheValueOfAReadingWithinItsSecond() {
        assertSameValueWithinOneSecond(() -> HttpDate.at(System.nanoTime()));
    }

    @Test
    void readsTheWallClockForAReadingOutsideTheSecondItKnows() {
        HttpDate.now();
        Instant before = Instant.now();
        String date =
                HttpDate.at(System.nanoTime() - Duration.ofSeconds(5).toNanos()).toString();
        Instant after = Instant.now();

        Instant parsed =
                ZonedDateTime.parse(date, DateTimeFormatter.RFC_1123_DATE_TIME).toInstant();
        assertThat(parsed).isBetween(before.minus(Duration.ofSeconds(1)), after.plus(Duration.ofSeconds(1)));
    }

    @Test
    void formatsTheRfcExampleDate() {
        assertThat(HttpDate.format(784_111_777L)).isEqualTo("Sun, 06 Nov 1994 08:49:37 GMT");
    }

    @Test
    void agreesWithTheJdkFormatterAcrossCenturiesAndLeapDays() {
        DateTimeFormatter jdk = DateTimeFormatter.ofPattern("EEE, dd MMM yyyy HH:mm:ss 'GMT'", Locale.ENGLISH)
                .withZone(ZoneOffset.UTC);
        long[] instants = {0L, 951_782_400L, 951_868_799L, 4_107_542_399L, 1_709_164_800L, 253_402_300_799L};
        for (long second : instants) {
            assertThat(HttpDate.format(second)).isEqualTo(jdk.format(Instant.ofEpochSecond(second)));
        }
        Random random = new Random(42);
        for (int i = 0; i < 100_000; i++) {
            long second = (long) (random.nextDouble() * 253_402_300_799L);
            assertThat(HttpDate.format(second)).isEqualTo(jdk.format(Instant.ofEpochSecond(second)));
        }
    }

    /** Asserts that the value after {@link HttpDate#now()} in the same second is the same object. */
    private static void assertSameValueWithinOneSecond(Supplier<CharSequence> next) {
        for (int attempt = 0; attempt < 10; attempt++) {
            long secondBefore = System.currentTimeMillis() / 1000;
            CharSequence first = HttpDate.now();
            CharSequence second = next.get();
            if (System.currentTimeMillis() / 1000 == secondBefore) {
                assertThat(second).isSameAs(first);
                return;
            }
        }
        throw new AssertionError("the clock crossed a second boundary in each of ten attempts");
    }
}
