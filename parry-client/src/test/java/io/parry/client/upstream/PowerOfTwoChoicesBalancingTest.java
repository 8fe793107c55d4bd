package io.parry.client.upstream;

import static io.parry.client.upstream.RoundRobinBalancingTest.select;
import static org.assertj.core.api.Assertions.assertThat;

import io.parry.client.Endpoint;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class PowerOfTwoChoicesBalancingTest {
    private final Endpoint a = Endpoint.of("10.0.0.1", 80);
    private final Endpoint b = Endpoint.of("10.0.0.2", 80);
    private final Endpoint c = Endpoint.of("10.0.0.3", 80);
    private final Upstream upstream = Upstream.builder("p2c")
            .endpoints(List.of(a, b, c))
            .balancing(Balancing.POWER_OF_TWO_CHOICES)
            .build();

    @Test
    void neverSelectsTheMostLoadedEndpoint() {
        upstream.callStarted(a);
        upstream.callStarted(a);
        upstream.callStarted(b);

        Map<Endpoint, Integer> counts = select(upstream, 3000, e -> true);

        // c wins both pairs it is drawn in (two thirds of draws), b wins the pair {a, b}.
        assertThat(counts).containsOnlyKeys(b, c);
        assertThat(counts.get(c)).isBetween(1800, 2200);
    }

    @Test
    void prefersTheLessLoadedOfTwo() {
        upstream.callStarted(a);

        Map<Endpoint, Integer> counts = select(upstream, 200, e -> !e.equals(c));

        assertThat(counts).containsExactlyEntriesOf(Map.of(b, 200));
    }

    @Test
    void spreadsCallsAcrossIdleEndpoints() {
        Map<Endpoint, Integer> counts = select(upstream, 30_000, e -> true);

        assertThat(counts.values()).allSatisfy(count -> assertThat(count).isBetween(9000, 11_000));
    }

    @Test
    void selectsTheOnlyEligibleEndpoint() {
        assertThat(select(upstream, 50, e -> e.equals(b))).containsExactlyEntriesOf(Map.of(b, 50));
        assertThat(upstream.select(e -> false)).isEmpty();
    }

    @Test
    void balancesCallsThatNeverFinish() {
        for (int i = 0; i < 300; i++) {
            upstream.callStarted(upstream.select(e -> true).orElseThrow());
        }

        assertThat(upstream.status()).extracting(EndpointStatus::inFlight).allSatisfy(inFlight -> assertThat(inFlight)
                .isBetween(95, 105));
    }
}
