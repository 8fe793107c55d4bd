package io.parry.client.upstream;

import static io.parry.client.upstream.RoundRobinBalancingTest.select;
import static org.assertj.core.api.Assertions.assertThat;

import io.parry.client.Endpoint;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.Test;

class OutlierEjectionTest {
    private final Endpoint a = Endpoint.of("10.0.0.1", 80);
    private final Endpoint b = Endpoint.of("10.0.0.2", 80);
    private final Endpoint c = Endpoint.of("10.0.0.3", 80);
    private final Endpoint d = Endpoint.of("10.0.0.4", 80);

    @Test
    void ejectsAnEndpointAfterConsecutiveFailures() {
        Upstream upstream = Upstream.of("ejecting", a, b);

        fail(upstream, a, 4);
        assertThat(status(upstream, a).ejected()).isFalse();
        assertThat(status(upstream, a).consecutiveFailures()).isEqualTo(4);

        fail(upstream, a, 1);
        assertThat(status(upstream, a).ejected()).isTrue();
        assertThat(status(upstream, a).healthy()).isFalse();
        assertThat(status(upstream, a).consecutiveFailures()).isZero();
        assertThat(select(upstream, 10, e -> true)).containsOnlyKeys(b);
    }

    @Test
    void aSuccessResetsTheFailureCount() {
        Upstream upstream = Upstream.of("resetting", a, b);

        fail(upstream, a, 4);
        upstream.callStarted(a);
        upstream.callFinished(a, true);
        fail(upstream, a, 4);

        assertThat(status(upstream, a).ejected()).isFalse();
        assertThat(status(upstream, a).consecutiveFailures()).isEqualTo(4);
    }

    @Test
    void returnsAnEjectedEndpointWhenItsTimeIsUp() {
        Upstream upstream = Upstream.builder("expiring")
                .endpoints(List.of(a, b))
                .outlierDetection(shortEjection())
                .build();

        long ejectedAt = System.nanoTime();
        fail(upstream, a, 5);
        assertThat(upstream.select(e -> e.equals(a))).isEmpty();

        Await.until("a returns", () -> upstream.select(e -> e.equals(a)).isPresent());
        assertThat(System.nanoTime() - ejectedAt)
                .isGreaterThanOrEqualTo(Duration.ofMillis(50).toNanos());
        assertThat(status(upstream, a).ejected()).isFalse();
    }

    @Test
    void doublesTheEjectionTimeOfAnEndpointThatFailsAgainWithoutASuccess() {
        Upstream upstream = Upstream.builder("doubling")
                .endpoints(List.of(a, b))
                .outlierDetection(shortEjection())
                .build();
        fail(upstream, a, 5);
        Await.until("a returns", () -> upstream.select(e -> e.equals(a)).isPresent());

        long ejectedAt = System.nanoTime();
        fail(upstream, a, 5);
        assertThat(status(upstream, a).ejected()).isTrue();

        Await.until("a returns again", () -> upstream.select(e -> e.equals(a)).isPresent());
        assertThat(System.nanoTime() - ejectedAt)
                .isGreaterThanOrEqualTo(Duration.ofMillis(100).toNanos());
    }

    @Test
    void ignoresFailuresOfCallsThatEndWhileEjected() {
        Upstream upstream = Upstream.of("ignoring", a, b);

        fail(upstream, a, 5);
        fail(upstream, a, 3);

        assertThat(status(upstream, a).consecutiveFailures()).isZero();
    }

    @Test
    void ejectsAtMostMaxEjectionPercentOfTheGroup() {
        Upstream upstream = Upstream.of("half", a, b, c, d);

        for (Endpoint endpoint : List.of(a, b, c, d)) {
            fail(upstream, endpoint, 5);
        }

        assertThat(upstream.status()).extracting(EndpointStatus::ejected).containsExactly(true, true, false, false);
        assertThat(status(upstream, c).consecutiveFailures()).isEqualTo(5);
    }

    @Test
    void ejectsAnotherEndpointOnceAnEjectionEnds() {
        Upstream upstream = Upstream.builder("budget")
                .endpoints(List.of(a, b, c, d))
                .outlierDetection(shortEjection())
                .build();
        fail(upstream, a, 5);
        fail(upstream, b, 5);
        fail(upstream, c, 5);
        assertThat(status(upstream, c).ejected()).isFalse();

        Await.until("a and b return", () -> upstream.status().stream().noneMatch(EndpointStatus::ejected));
        fail(upstream, c, 1);

        assertThat(status(upstream, c).ejected()).isTrue();
    }

    @Test
    void neverEjectsTheLastHealthyEndpoint() {
        Upstream upstream = Upstream.builder("all")
                .endpoints(List.of(a, b, c))
                .outlierDetection(
                        OutlierDetection.builder().maxEjectionPercent(100).build())
                .build();

        for (Endpoint endpoint : List.of(a, b, c)) {
            fail(upstream, endpoint, 5);
        }

        assertThat(upstream.status()).extracting(EndpointStatus::ejected).containsExactly(true, true, false);
        assertThat(upstream.select(e -> true)).contains(c);
    }

    @Test
    void neverEjectsTheOnlyEndpoint() {
        Upstream upstream = Upstream.of("single", a);

        fail(upstream, a, 50);

        assertThat(upstream.select(e -> true)).contains(a);
        assertThat(status(upstream, a).consecutiveFailures()).isEqualTo(50);
    }

    @Test
    void ejectsNothingWhenDisabled() {
        Upstream upstream = Upstream.builder("tolerant")
                .endpoints(List.of(a, b))
                .outlierDetection(OutlierDetection.disabled())
                .build();

        fail(upstream, a, 20);

        assertThat(upstream.status()).extracting(EndpointStatus::healthy).containsExactly(true, true);
    }

    static void fail(Upstream upstream, Endpoint endpoint, int times) {
        for (int i = 0; i < times; i++) {
            upstream.callStarted(endpoint);
            upstream.callFinished(endpoint, false);
        }
    }

    static EndpointStatus status(Upstream upstream, Endpoint endpoint) {
        return upstream.status().stream()
                .filter(status -> status.endpoint().equals(endpoint))
                .findFirst()
                .orElseThrow();
    }

    private static OutlierDetection shortEjection() {
        return OutlierDetection.builder()
                .ejectionTime(Duration.ofMillis(50))
                .maxEjectionTime(Duration.ofSeconds(1))
                .build();
    }
}
