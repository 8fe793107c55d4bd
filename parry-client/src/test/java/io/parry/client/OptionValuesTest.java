package io.parry.client;

import static org.assertj.core.api.Assertions.assertThat;

import io.parry.client.upstream.HealthCheck;
import io.parry.client.upstream.OutlierDetection;
import java.net.InetSocketAddress;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.function.Function;
import java.util.stream.Stream;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/** Every options class of the client and its upstream groups is a value: equal by content, and rebuilt unchanged by {@code toBuilder()}. */
class OptionValuesTest {

    static Stream<Arguments> options() {
        return Stream.of(
                example(
                        ClientTimeouts.builder().connect(Duration.ofSeconds(1)).build(),
                        ClientTimeouts.builder().connect(Duration.ofSeconds(1)).build(),
                        o -> ((ClientTimeouts) o).toBuilder().build(),
                        ClientTimeouts.builder().connect(Duration.ofSeconds(3)).build()),
                example(
                        PoolOptions.builder().maxPending(7).build(),
                        PoolOptions.builder().maxPending(7).build(),
                        o -> ((PoolOptions) o).toBuilder().build(),
                        PoolOptions.builder().maxPending(8).build()),
                example(
                        ClientOptions.builder()
                                .nameServers(List.of(new InetSocketAddress("127.0.0.1", 53)))
                                .pool(PoolOptions.builder().maxConnections(3).build())
                                .build(),
                        ClientOptions.builder()
                                .nameServers(List.of(new InetSocketAddress("127.0.0.1", 53)))
                                .pool(PoolOptions.builder().maxConnections(3).build())
                                .build(),
                        o -> ((ClientOptions) o).toBuilder().build(),
                        ClientOptions.builder()
                                .nameServers(List.of(new InetSocketAddress("127.0.0.1", 53)))
                                .pool(PoolOptions.builder().maxConnections(4).build())
                                .build()),
                example(
                        ClientTlsOptions.builder()
                                .caBundle(Path.of("ca.pem"))
                                .sniName("api.internal")
                                .clientCertificate(Path.of("gw.pem"), Path.of("gw-key.pem"))
                                .build(),
                        ClientTlsOptions.builder()
                                .caBundle(Path.of("ca.pem"))
                                .sniName("api.internal")
                                .clientCertificate(Path.of("gw.pem"), Path.of("gw-key.pem"))
                                .build(),
                        o -> ((ClientTlsOptions) o).toBuilder().build(),
                        ClientTlsOptions.builder()
                                .caBundle(Path.of("ca.pem"))
                                .sniName("api.internal")
                                .clientCertificate(Path.of("gw.pem"), Path.of("gw-key.pem"))
                                .verify(false)
                                .build()),
                example(
                        ClientOptions.builder().protocol(ClientProtocol.H2).build(),
                        ClientOptions.builder().protocol(ClientProtocol.H2).build(),
                        o -> ((ClientOptions) o).toBuilder().build(),
                        ClientOptions.builder().protocol(ClientProtocol.H2C).build()),
                example(
                        HealthCheck.builder("/health").healthyThreshold(4).build(),
                        HealthCheck.builder("/health").healthyThreshold(4).build(),
                        o -> ((HealthCheck) o).toBuilder().build(),
                        HealthCheck.builder("/ready").healthyThreshold(4).build()),
                example(
                        OutlierDetection.builder()
                                .ejectionTime(Duration.ofSeconds(7))
                                .build(),
                        OutlierDetection.builder()
                                .ejectionTime(Duration.ofSeconds(7))
                                .build(),
                        o -> ((OutlierDetection) o).toBuilder().build(),
                        OutlierDetection.builder()
                                .ejectionTime(Duration.ofSeconds(8))
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
