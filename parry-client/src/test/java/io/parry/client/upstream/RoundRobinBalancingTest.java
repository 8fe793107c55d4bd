package io.parry.client.upstream;

import static org.assertj.core.api.Assertions.assertThat;

import io.parry.client.Endpoint;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Predicate;
import org.junit.jupiter.api.Test;

class RoundRobinBalancingTest {
    private final Endpoint a = Endpoint.of("10.0.0.1", 80);
    private final Endpoint b = Endpoint.of("10.0.0.2", 80);
    private final Endpoint c = Endpoint.of("10.0.0.3", 80);
    private final Upstream upstream = Upstream.of("rr", a, b, c);

    @Test
    void takesEachEndpointInTurn() {
        List<Endpoint> picks = new ArrayList<>();
        for (int i = 0; i < 6; i++) {
            picks.add(upstream.select(e -> true).orElseThrow());
        }

        assertThat(picks).containsExactly(a, b, c, a, b, c);
    }

    @Test
    void spreadsCallsEvenly() {
        Map<Endpoint, Integer> counts = select(upstream, 3000, e -> true);

        assertThat(counts).containsExactlyInAnyOrderEntriesOf(Map.of(a, 1000, b, 1000, c, 1000));
    }

    @Test
    void sharesAnIneligibleEndpointsTurnsEvenly() {
        Map<Endpoint, Integer> counts = select(upstream, 3000, e -> !e.equals(a));

        assertThat(counts).containsExactlyInAnyOrderEntriesOf(Map.of(b, 1500, c, 1500));
    }

    @Test
    void selectsNothingWhenNoEndpointIsEligible() {
        assertThat(upstream.select(e -> false)).isEmpty();
    }

    @Test
    void returnsTheSameOptionalForAnEndpointEveryTime() {
        Upstream single = Upstream.of("one", a);

        assertThat(single.select(e -> true)).isSameAs(single.select(e -> true));
    }

    static Map<Endpoint, Integer> select(Upstream upstream, int times, Predicate<Endpoint> eligible) {
        Map<Endpoint, Integer> counts = new HashMap<>();
        for (int i = 0; i < times; i++) {
            counts.merge(upstream.select(eligible).orElseThrow(), 1, Integer::sum);
        }
        return counts;
    }
}
