package io.parry.server.internal;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

class ContentLengthsTest {
    @Test
    void writesEachLengthAsItsDecimalText() {
        assertThat(ContentLengths.of(0)).hasToString("0");
        assertThat(ContentLengths.of(13)).hasToString("13");
        assertThat(ContentLengths.of(4095)).hasToString("4095");
        assertThat(ContentLengths.of(4096)).hasToString("4096");
        assertThat(ContentLengths.of(1L << 40)).hasToString("1099511627776");
    }

    @Test
    void makesTheTextOfASmallLengthOnce() {
        assertThat(ContentLengths.of(200)).isSameAs(ContentLengths.of(200));
    }
}
