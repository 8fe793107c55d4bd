package io.parry.proxy;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.time.Duration;
import java.util.List;
import java.util.Set;
import java.util.function.Function;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/** Every options class of the proxy is a value: equal by content, and rebuilt unchanged by {@code toBuilder()}. */
class OptionValuesTest {

    static Stream<Arguments> options() {
        return Stream.of(
                example(
                        BreakerOptions.builder().minimumCalls(4).build(),
                        BreakerOptions.builder().minimumCalls(4).build(),
                        o -> ((BreakerOptions) o).toBuilder().build(),
                        BreakerOptions.builder().minimumCalls(5).build()),
                example(
                        ForwardingOptions.builder()
                                .trustedProxies(List.of("10.0.0.0/8"))
                                .via("edge")
                                .build(),
                        ForwardingOptions.builder()
                                .trustedProxies(List.of("10.0.0.0/8"))
                                .via("edge")
                                .build(),
                        o -> ((ForwardingOptions) o).toBuilder().build(),
                        ForwardingOptions.builder()
                                .trustedProxies(List.of("10.0.0.0/8"))
                                .via("edge-2")
                                .build()),
                example(
                        RetryPolicy.builder()
                                .retryStatuses(Set.of(503))
                                .backoff(Duration.ofMillis(5))
                                .build(),
                        RetryPolicy.builder()
                                .retryStatuses(Set.of(503))
                                .backoff(Duration.ofMillis(5))
                                .build(),
                        o -> ((RetryPolicy) o).toBuilder().build(),
                        RetryPolicy.builder()
                                .retryStatuses(Set.of(502))
                                .backoff(Duration.ofMillis(5))
                                .build()),
                example(
                        HeaderRules.builder().remove("x-a").set("x-b", "1").build(),
                        HeaderRules.builder().remove("x-a").set("x-b", "1").build(),
                        o -> ((HeaderRules) o).toBuilder().build(),
                        HeaderRules.builder().set("x-b", "1").remove("x-a").build()),
                example(
                        WebSocketProxyOptions.builder()
                                .allowedOrigins(Set.of("https://a.example"))
                                .build(),
                        WebSocketProxyOptions.builder()
                                .allowedOrigins(Set.of("https://a.example"))
                                .build(),
                        o -> ((WebSocketProxyOptions) o).toBuilder().build(),
                        WebSocketProxyOptions.builder()
                                .allowedOrigins(Set.of("https://b.example"))
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

    @Test
    void disabledBreakerDiffersFromTheDefaultsAndItsBuilderBuildsEnabledOptions() {
        assertThat(BreakerOptions.disabled()).isNotEqualTo(BreakerOptions.ofDefault());
        assertThat(BreakerOptions.disabled().toBuilder().build()).isEqualTo(BreakerOptions.ofDefault());
    }

    @Test
    void refusesABreakerOpenDurationItsBreakerCannotKeep() {
        assertThatThrownBy(() -> BreakerOptions.builder()
                        .openDuration(Duration.ofNanos(999_999))
                        .build())
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessage("openDuration: PT0.000999999S (expected: >= 1 ms)");
        assertThat(BreakerOptions.builder()
                        .openDuration(Duration.ofMillis(1))
                        .build()
                        .openDuration())
                .isEqualTo(Duration.ofMillis(1));
    }

    @Test
    void refusesWebSocketLimitsThatCannotHold() {
        assertThatThrownBy(() -> WebSocketProxyOptions.builder().maxFrameSize(0).build())
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessage("maxFrameSize: 0 (expected: > 0)");
        assertThatThrownBy(() -> WebSocketProxyOptions.builder()
                        .maxFrameSize(1024)
                        .maxMessageSize(512)
                        .build())
                .hasMessage("maxMessageSize: 512 (expected: >= maxFrameSize 1024)");
        assertThatThrownBy(() -> WebSocketProxyOptions.builder()
                        .closeTimeout(Duration.ZERO)
                        .build())
                .hasMessage("closeTimeout: PT0S (expected: > 0)");
    }

    @Test
    void allowsAnyOriginUntilSomeAreListed() {
        WebSocketProxyOptions some = WebSocketProxyOptions.builder()
                .allowedOrigins(Set.of("https://a.example"))
                .build();

        assertThat(WebSocketProxyOptions.ofDefault().allowsOrigin(null)).isTrue();
        assertThat(some.allowsOrigin("https://a.example")).isTrue();
        assertThat(some.allowsOrigin("https://b.example")).isFalse();
        assertThat(some.allowsOrigin(null)).isFalse();
    }
}
