package io.parry.ratelimit.internal;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

class RateLimitFieldsTest {

    @Test
    void roundsSecondsUpAndNeverToZero() {
        assertThat(RateLimitFields.seconds(0)).isEqualTo(1);
        assertThat(RateLimitFields.seconds(1)).isEqualTo(1);
        assertThat(RateLimitFields.seconds(1_000_000_000L)).isEqualTo(1);
        assertThat(RateLimitFields.seconds(1_000_000_001L)).isEqualTo(2);
    }

    @Test
    void quotesPolicyNamesAsStructuredFieldStrings() {
        assertThat(RateLimitFields.quoted("a\"b\\c\u00e9")).isEqualTo("\"a\\\"b\\\\c_\"");
    }
}
