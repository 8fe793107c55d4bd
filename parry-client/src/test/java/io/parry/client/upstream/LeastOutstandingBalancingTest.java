package io.parry.client.upstream;

import static org.assertj.core.api.Assertions.assertThat;

import io.parry.client.Endpoint;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

class LeastOutstandingBalancingTest {
    private final Endpoint a = Endpoint.of("10.0.0.1", 80);
    private final Endpoint b = Endpoint.of("10.0.0.2", 80);
    private final Endpoint c = Endpoint.of("10.0.0.3", 80);
    private final Upstream upstream = Upstream.builder("lo")
            .endpoints(List.of(a, b, c))
            .balancing(Balancing.LEAST_OUTSTANDING)
            .build();

    @Test
    void selectsTheEndpointWithFewestCallsInFlight() {
        start(a, 2);
        start(c, 1);

        assertThat(upstream.select(e -> true)).contains(b);
        start(b, 2);
        assertThat(upstream.select(e -> true)).contains(c);
    }

    @Test
    void rotatesAmongTiedEndpoints() {
        start(b, 1);

        List<Endpoint> picks = new ArrayList<>();
        for (int i = 0; i < 4; i++) {
            picks.add(upstream.select(e -> true).orElseThrow());
        }

        assertThat(picks).containsExactly(a, c, a, c);
    }

    @Test
    void followsCallsAsTheyFinish() {
        start(a, 1);
        start(b, 1);
        start(c, 1);
        upstream.callFinished(b, true);

        assertThat(upstream.select(e -> true)).contains(b);
        assertThat(upstream.status()).extracting(EndpointStatus::inFlight).containsExactly(1, 0, 1);
    }

    @Test
    void skipsIneligibleEndpointsEvenIfIdle() {
        start(a, 3);
        start(c, 5);

        assertThat(upstream.select(e -> !e.equals(b))).contains(a);
        assertThat(upstream.select(e -> false)).isEmpty();
    }

    @Test
    void keepsEveryCallOnTheLeastLoadedWhenCallsNeverFinish() {
        for (int i = 0; i < 300; i++) {
            upstream.callStarted(upstream.select(e -> true).orElseThrow());
        }

        assertThat(upstream.status()).extracting(EndpointStatus::inFlight).containsExactly(100, 100, 100);
    }

    private void start(Endpoint endpoint, int calls) {
        for (int i = 0; i < calls; i++) {
            upstream.callStarted(endpoint);
        }
    }
}
