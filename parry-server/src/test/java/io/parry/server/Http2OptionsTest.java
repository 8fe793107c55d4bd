package io.parry.server;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.time.Duration;
import org.junit.jupiter.api.Test;

class Http2OptionsTest {
    @Test
    void speaksH2cByPriorKnowledgeAndNotByUpgradeByDefault() {
        Http2Options options = Http2Options.ofDefault();

        assertThat(options.priorKnowledge()).isTrue();
        assertThat(options.upgrade()).isFalse();
        assertThat(ServerOptions.ofDefault().http2()).isEqualTo(options);
    }

    @Test
    void derivesTheConnectionWindowSoThatStalledStreamsCannotStopTheOthers() {
        Http2Options options = Http2Options.builder()
                .maxConcurrentStreams(10)
                .initialStreamWindow(100_000)
                .build();

        assertThat(options.initialConnectionWindow()).isEqualTo(1_000_000);
        assertThat(options.toBuilder().maxConcurrentStreams(20).build().initialConnectionWindow())
                .isEqualTo(2_000_000);
        assertThat(Http2Options.builder()
                        .initialConnectionWindow(70_000)
                        .build()
                        .initialConnectionWindow())
                .isEqualTo(70_000);
    }

    @Test
    void refusesValuesOutOfRange() {
        assertThatThrownBy(() -> Http2Options.builder().maxFrameSize(1024).build())
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageStartingWith("maxFrameSize: 1024 (expected: 16384 to 16777215");
        assertThatThrownBy(() -> Http2Options.builder().maxConcurrentStreams(0).build())
                .hasMessage("maxConcurrentStreams: 0 (expected: > 0)");
        assertThatThrownBy(() ->
                        Http2Options.builder().initialConnectionWindow(1000).build())
                .hasMessage("initialConnectionWindow: 1000 (expected: >= 65535)");
        assertThatThrownBy(() -> Http2Options.builder()
                        .stallTimeout(Duration.ofSeconds(-1))
                        .build())
                .hasMessageStartingWith("stallTimeout: PT-1S");
    }
}
