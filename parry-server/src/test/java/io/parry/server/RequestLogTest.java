package io.parry.server;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Instant;
import org.junit.jupiter.api.Test;

class RequestLogTest {

    @Test
    void startsWithNothingKnown() {
        RequestLog log = RequestLog.builder().build();

        assertThat(log.method()).isNull();
        assertThat(log.path()).isNull();
        assertThat(log.route()).isNull();
        assertThat(log.status()).isZero();
        assertThat(log.completed()).isFalse();
        assertThat(log.start()).isEqualTo(Instant.EPOCH);
        assertThat(log.upstreamNanos()).isEqualTo(-1);
        assertThat(log.traceId()).isNull();
        assertThat(log.protocol()).isEqualTo("HTTP/1.1");
    }
}
