package io.parry.server.websocket;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.time.Duration;
import java.util.Set;
import org.junit.jupiter.api.Test;

class WebSocketOptionsTest {
    @Test
    void areValuesThatRoundTripThroughTheirBuilder() {
        WebSocketOptions options = WebSocketOptions.builder()
                .maxFrameSize(10)
                .maxMessageSize(20)
                .maxSendQueue(30)
                .idleTimeout(Duration.ofSeconds(3))
                .closeTimeout(Duration.ofSeconds(4))
                .pingInterval(Duration.ofSeconds(5))
                .allowedOrigins(Set.of("https://a.example"))
                .deflate(PerMessageDeflate.disabled())
                .streamFragments(true)
                .build();

        assertThat(options.toBuilder().build()).isEqualTo(options).hasSameHashCodeAs(options);
        assertThat(options).isNotEqualTo(WebSocketOptions.ofDefault());
        assertThat(options.toString()).contains("maxFrameSize=10", "https://a.example");
    }

    @Test
    void refusesSizesThatAreNotPositiveAndNegativeDurations() {
        assertThatThrownBy(() -> WebSocketOptions.builder().maxFrameSize(0).build())
                .hasMessage("maxFrameSize: 0 (expected: > 0)");
        assertThatThrownBy(() -> WebSocketOptions.builder().maxMessageSize(-1).build())
                .hasMessage("maxMessageSize: -1 (expected: > 0)");
        assertThatThrownBy(() -> WebSocketOptions.builder().maxSendQueue(0).build())
                .hasMessage("maxSendQueue: 0 (expected: > 0)");
        assertThatThrownBy(() -> WebSocketOptions.builder()
                        .idleTimeout(Duration.ofSeconds(-1))
                        .build())
                .hasMessage("idleTimeout: PT-1S (expected: >= 0, 0 disables)");
    }

    @Test
    void refusesDeflateSettingsOutOfRange() {
        assertThatThrownBy(
                        () -> PerMessageDeflate.builder().compressionLevel(10).build())
                .hasMessage("compressionLevel: 10 (expected: 0 to 9)");
        assertThatThrownBy(() -> PerMessageDeflate.builder().clientWindowBits(7).build())
                .hasMessage("clientWindowBits: 7 (expected: 8 to 15)");
        assertThat(PerMessageDeflate.ofDefault().toBuilder().build()).isEqualTo(PerMessageDeflate.ofDefault());
    }
}
