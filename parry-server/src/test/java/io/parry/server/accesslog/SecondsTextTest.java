package io.parry.server.accesslog;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Instant;
import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;
import org.junit.jupiter.api.Test;

class SecondsTextTest {
    private static final DateTimeFormatter FULL =
            DateTimeFormatter.ofPattern("uuuu-MM-dd'T'HH:mm:ss.SSS").withZone(ZoneOffset.UTC);

    @Test
    void matchesTheFormatterAcrossSecondsGoingForwardAndBack() {
        SecondsText text = new SecondsText(
                DateTimeFormatter.ofPattern("uuuu-MM-dd'T'HH:mm:ss.").withZone(ZoneOffset.UTC));
        Instant start = Instant.parse("2025-12-31T23:59:58.990Z");
        long[] offsetsMillis = {0, 9, 10, 1_000, 1_010, 2_005, 999, -5_000_000_000L, 0};

        for (long offset : offsetsMillis) {
            Instant time = start.plusMillis(offset);
            StringBuilder line = text.append(time, new StringBuilder());
            SecondsText.appendMillis(time, line);

            assertThat(line.toString()).isEqualTo(FULL.format(time));
        }
    }

    @Test
    void padsMillisecondsToThreeDigits() {
        assertThat(SecondsText.appendMillis(Instant.ofEpochSecond(7, 4_000_000), new StringBuilder())
                        .toString())
                .isEqualTo("004");
        assertThat(SecondsText.appendMillis(Instant.ofEpochSecond(7, 45_999_999), new StringBuilder())
                        .toString())
                .isEqualTo("045");
        assertThat(SecondsText.appendMillis(Instant.ofEpochSecond(7, 999_000_000), new StringBuilder())
                        .toString())
                .isEqualTo("999");
    }
}
