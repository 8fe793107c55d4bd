package io.parry.server;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.parry.transport.TransportKind;
import java.time.Duration;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

class ServerOptionsTest {

    @Test
    void defaultsAreTheDocumentedOnes() {
        ServerOptions options = ServerOptions.ofDefault();

        assertThat(options.host()).isEqualTo("0.0.0.0");
        assertThat(options.port()).isEqualTo(8080);
        assertThat(options.eventLoopThreads()).isEqualTo(Runtime.getRuntime().availableProcessors());
        assertThat(options.transport()).isEqualTo(TransportKind.AUTO);
        assertThat(options.limits()).isSameAs(RequestLimits.ofDefault());
        assertThat(options.timeouts()).isSameAs(ServerTimeouts.ofDefault());
        assertThat(options.workers()).isSameAs(WorkerOptions.ofDefault());
        assertThat(options.tracing()).isTrue();
    }

    @ParameterizedTest
    @ValueSource(ints = {-1, 65536, Integer.MIN_VALUE, Integer.MAX_VALUE})
    void rejectsAPortOutOfRange(int port) {
        assertThatThrownBy(() -> ServerOptions.builder().port(port).build())
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessage("port: " + port + " (expected: 0 to 65535, 0 for any free port)");
    }

    @ParameterizedTest
    @ValueSource(ints = {0, 1, 65535})
    void acceptsAPortInRange(int port) {
        assertThat(ServerOptions.builder().port(port).build().port()).isEqualTo(port);
    }

    @Test
    void rejectsANonPositiveEventLoopCount() {
        assertThatThrownBy(() -> ServerOptions.builder().eventLoopThreads(0).build())
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessage("eventLoopThreads: 0 (expected: > 0)");
    }

    @Test
    void rejectsNullsByName() {
        ServerOptions.Builder builder = ServerOptions.builder();

        assertThatThrownBy(() -> builder.host(null))
                .isInstanceOf(NullPointerException.class)
                .hasMessage("host");
        assertThatThrownBy(() -> builder.transport(null)).hasMessage("transport");
        assertThatThrownBy(() -> builder.limits(null)).hasMessage("limits");
        assertThatThrownBy(() -> builder.timeouts(null)).hasMessage("timeouts");
        assertThatThrownBy(() -> builder.workers(null)).hasMessage("workers");
    }

    @Test
    void toBuilderRoundTripsEveryOption() {
        RequestLimits limits = RequestLimits.builder().maxHeaderCount(7).build();
        ServerTimeouts timeouts =
                ServerTimeouts.builder().idle(Duration.ofSeconds(5)).build();
        WorkerOptions workers = WorkerOptions.builder().maxThreads(3).build();
        ServerOptions options = ServerOptions.builder()
                .host("127.0.0.1")
                .port(0)
                .eventLoopThreads(3)
                .transport(TransportKind.NIO)
                .limits(limits)
                .timeouts(timeouts)
                .workers(workers)
                .tracing(false)
                .build();

        ServerOptions copy = options.toBuilder().build();

        assertThat(copy).usingRecursiveComparison().isEqualTo(options);
        assertThat(copy.host()).isEqualTo("127.0.0.1");
        assertThat(copy.port()).isZero();
        assertThat(copy.eventLoopThreads()).isEqualTo(3);
        assertThat(copy.transport()).isEqualTo(TransportKind.NIO);
        assertThat(copy.limits()).isSameAs(limits);
        assertThat(copy.timeouts()).isSameAs(timeouts);
        assertThat(copy.workers()).isSameAs(workers);
        assertThat(copy.tracing()).isFalse();
    }

    @Test
    void toBuilderValidatesAgain() {
        ServerOptions options = ServerOptions.builder().port(1).build();

        assertThatThrownBy(() -> options.toBuilder().port(-1).build()).isInstanceOf(IllegalArgumentException.class);
        assertThat(options.port()).isEqualTo(1);
    }
}
