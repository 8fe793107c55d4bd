package io.parry.startup;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import org.junit.jupiter.api.Test;

class StartupTest {
    @Test
    void turnsNettysJfrEventsOffUnlessTheCommandLineSetThem() {
        String before = System.getProperty("io.netty.jfr.enabled");
        try {
            System.clearProperty("io.netty.jfr.enabled");
            Startup.prepare();
            assertThat(System.getProperty("io.netty.jfr.enabled")).isEqualTo("false");

            System.setProperty("io.netty.jfr.enabled", "true");
            Startup.prepare();
            assertThat(System.getProperty("io.netty.jfr.enabled")).isEqualTo("true");
        } finally {
            if (before == null) {
                System.clearProperty("io.netty.jfr.enabled");
            } else {
                System.setProperty("io.netty.jfr.enabled", before);
            }
        }
    }

    @Test
    void readsAPortFrom0To65535() {
        assertThat(Startup.parsePort("0")).isZero();
        assertThat(Startup.parsePort(" 8080 ")).isEqualTo(8080);
        assertThat(Startup.parsePort("65535")).isEqualTo(65535);
    }

    @Test
    void rejectsAPortOutOfRangeOrNotANumber() {
        assertThatThrownBy(() -> Startup.parsePort("65536"))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessage("PORT: 65536 (expected: 0 to 65535)");
        assertThatThrownBy(() -> Startup.parsePort("http"))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessage("PORT: http (expected: 0 to 65535)");
    }
}
