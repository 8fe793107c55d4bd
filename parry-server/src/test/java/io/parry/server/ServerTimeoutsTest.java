package io.parry.server;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.time.Duration;
import org.junit.jupiter.api.Test;

class ServerTimeoutsTest {

    @Test
    void defaultsAreTheDocumentedOnes() {
        ServerTimeouts timeouts = ServerTimeouts.ofDefault();

        assertThat(timeouts.headerRead()).isEqualTo(Duration.ofSeconds(10));
        assertThat(timeouts.idle()).isEqualTo(Duration.ofSeconds(60));
        assertThat(timeouts.request()).isEqualTo(Duration.ofSeconds(30));
        assertThat(timeouts.write()).isEqualTo(Duration.ofSeconds(30));
    }

    @Test
    void rejectsANegativeHeaderReadTimeout() {
        assertThatThrownBy(() -> ServerTimeouts.builder()
                        .headerRead(Duration.ofSeconds(-1))
                        .build())
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessage("headerRead: PT-1S (expected: >= 0, 0 disables)");
    }

    @Test
    void rejectsANegativeIdleTimeout() {
        assertThatThrownBy(() ->
                        ServerTimeouts.builder().idle(Duration.ofMillis(-1)).build())
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessage("idle: PT-0.001S (expected: >= 0, 0 disables)");
    }

    @Test
    void rejectsANegativeRequestTimeout() {
        assertThatThrownBy(() ->
                        ServerTimeouts.builder().request(Duration.ofNanos(-1)).build())
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageStartingWith("request: ");
    }

    @Test
    void rejectsANegativeWriteTimeout() {
        assertThatThrownBy(() ->
                        ServerTimeouts.builder().write(Duration.ofMinutes(-2)).build())
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessage("write: PT-2M (expected: >= 0, 0 disables)");
    }

    @Test
    void rejectsNullTimeoutsByName() {
        assertThatThrownBy(() -> ServerTimeouts.builder().headerRead(null))
                .isInstanceOf(NullPointerException.class)
                .hasMessage("headerRead");
        assertThatThrownBy(() -> ServerTimeouts.builder().idle(null)).hasMessage("idle");
        assertThatThrownBy(() -> ServerTimeouts.builder().request(null)).hasMessage("request");
        assertThatThrownBy(() -> ServerTimeouts.builder().write(null)).hasMessage("write");
    }

    @Test
    void acceptsZeroToDisableATimeout() {
        ServerTimeouts timeouts = ServerTimeouts.builder()
                .headerRead(Duration.ZERO)
                .idle(Duration.ZERO)
                .request(Duration.ZERO)
                .write(Duration.ZERO)
                .build();

        assertThat(timeouts.headerRead()).isZero();
        assertThat(timeouts.idle()).isZero();
        assertThat(timeouts.request()).isZero();
        assertThat(timeouts.write()).isZero();
    }

    @Test
    void toBuilderRoundTripsEveryTimeout() {
        ServerTimeouts timeouts = ServerTimeouts.builder()
                .headerRead(Duration.ofMillis(1))
                .idle(Duration.ofMillis(2))
                .request(Duration.ofMillis(3))
                .write(Duration.ofMillis(4))
                .build();

        ServerTimeouts copy = timeouts.toBuilder().build();

        assertThat(copy).usingRecursiveComparison().isEqualTo(timeouts);
        assertThat(copy.headerRead()).isEqualTo(Duration.ofMillis(1));
        assertThat(copy.idle()).isEqualTo(Duration.ofMillis(2));
        assertThat(copy.request()).isEqualTo(Duration.ofMillis(3));
        assertThat(copy.write()).isEqualTo(Duration.ofMillis(4));
    }
}
