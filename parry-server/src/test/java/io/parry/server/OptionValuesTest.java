package io.parry.server;

import static org.assertj.core.api.Assertions.assertThat;

import io.parry.transport.TransportKind;
import java.nio.file.Path;
import java.time.Duration;
import java.util.function.Function;
import java.util.stream.Stream;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/** Every options class of the server is a value: equal by content, and rebuilt unchanged by {@code toBuilder()}. */
class OptionValuesTest {

    static Stream<Arguments> options() {
        return Stream.of(
                example(
                        RequestLimits.builder().maxBodySize(1 << 20).build(),
                        RequestLimits.builder().maxBodySize(1 << 20).build(),
                        o -> ((RequestLimits) o).toBuilder().build(),
                        RequestLimits.builder().maxBodySize(1 << 21).build()),
                example(
                        ServerTimeouts.builder().idle(Duration.ofSeconds(5)).build(),
                        ServerTimeouts.builder().idle(Duration.ofSeconds(5)).build(),
                        o -> ((ServerTimeouts) o).toBuilder().build(),
                        ServerTimeouts.builder().idle(Duration.ofSeconds(6)).build()),
                example(
                        TlsOptions.builder()
                                .certificate(TlsCertificate.ofFiles(Path.of("chain.pem"), Path.of("key.pem")))
                                .clientAuth(TlsOptions.ClientAuth.OPTIONAL)
                                .clientCa(Path.of("ca.pem"))
                                .build(),
                        TlsOptions.builder()
                                .certificate(TlsCertificate.ofFiles(Path.of("chain.pem"), Path.of("key.pem")))
                                .clientAuth(TlsOptions.ClientAuth.OPTIONAL)
                                .clientCa(Path.of("ca.pem"))
                                .build(),
                        o -> ((TlsOptions) o).toBuilder().build(),
                        TlsOptions.builder()
                                .certificate(TlsCertificate.ofFiles(Path.of("chain.pem"), Path.of("key.pem")))
                                .clientAuth(TlsOptions.ClientAuth.REQUIRE)
                                .clientCa(Path.of("ca.pem"))
                                .build()),
                example(
                        WorkerOptions.builder().maxThreads(8).build(),
                        WorkerOptions.builder().maxThreads(8).build(),
                        o -> ((WorkerOptions) o).toBuilder().build(),
                        WorkerOptions.builder().maxThreads(9).build()),
                example(
                        Http2Options.builder().maxConcurrentStreams(50).build(),
                        Http2Options.builder().maxConcurrentStreams(50).build(),
                        o -> ((Http2Options) o).toBuilder().build(),
                        Http2Options.builder()
                                .maxConcurrentStreams(50)
                                .stallTimeout(Duration.ofSeconds(1))
                                .build()),
                example(
                        ServerOptions.builder()
                                .port(9000)
                                .transport(TransportKind.NIO)
                                .limits(RequestLimits.builder()
                                        .maxConnections(5)
                                        .build())
                                .build(),
                        ServerOptions.builder()
                                .port(9000)
                                .transport(TransportKind.NIO)
                                .limits(RequestLimits.builder()
                                        .maxConnections(5)
                                        .build())
                                .build(),
                        o -> ((ServerOptions) o).toBuilder().build(),
                        ServerOptions.builder()
                                .port(9000)
                                .transport(TransportKind.NIO)
                                .limits(RequestLimits.builder()
                                        .maxConnections(6)
                                        .build())
                                .build()));
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("options")
    void isEqualToTheSameOptionsBuiltTwice(
            String name, Object options, Object same, Function<Object, Object> rebuild, Object other) {
        assertThat(options).isEqualTo(same).hasSameHashCodeAs(same).hasToString(same.toString());
        assertThat(options.toString()).startsWith(name);
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("options")
    void toBuilderRebuildsEqualOptions(
            String name, Object options, Object same, Function<Object, Object> rebuild, Object other) {
        assertThat(rebuild.apply(options)).isEqualTo(options).isNotSameAs(options);
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("options")
    void differsWhenOneSettingDiffers(
            String name, Object options, Object same, Function<Object, Object> rebuild, Object other) {
        assertThat(options).isNotEqualTo(other).isNotEqualTo(null).isNotEqualTo(name);
        assertThat(options.toString()).isNotEqualTo(other.toString());
    }

    private static Arguments example(Object options, Object same, Function<Object, Object> rebuild, Object other) {
        return Arguments.of(options.getClass().getSimpleName(), options, same, rebuild, other);
    }
}
