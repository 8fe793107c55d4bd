package io.parry.client.upstream;

import static io.parry.client.upstream.RoundRobinBalancingTest.select;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.data.Offset.offset;

import io.parry.client.Endpoint;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class WeightedRoundRobinBalancingTest {
    private final Endpoint a = Endpoint.of("10.0.0.1", 80).withWeight(5);
    private final Endpoint b = Endpoint.of("10.0.0.2", 80);
    private final Endpoint c = Endpoint.of("10.0.0.3", 80);

    @Test
    void interleavesSmoothlyAsNginxDoes() {
        Upstream upstream = weighted(a, b, c);

        assertThat(picks(upstream, 14)).containsExactly(a, a, b, a, c, a, a, a, a, b, a, c, a, a);
    }

    @Test
    void selectsInProportionToWeights() {
        Map<Endpoint, Integer> counts = select(weighted(a, b, c), 7000, e -> true);

        assertThat(counts).containsExactlyInAnyOrderEntriesOf(Map.of(a, 5000, b, 1000, c, 1000));
    }

    @Test
    void scheduleDependsOnRatiosNotOnScale() {
        Endpoint heavy = a.withWeight(50);
        Endpoint light = b.withWeight(10);
        Endpoint lighter = c.withWeight(10);

        assertThat(picks(weighted(heavy, light, lighter), 7))
                .containsExactly(heavy, heavy, light, heavy, lighter, heavy, heavy);
    }

    @Test
    void sharesAnIneligibleEndpointsTurnsByWeight() {
        Endpoint d = Endpoint.of("10.0.0.4", 80).withWeight(2);
        Upstream upstream = weighted(a, b, d);

        Map<Endpoint, Integer> counts = select(upstream, 8000, e -> !e.equals(a));

        assertThat(counts).containsExactlyInAnyOrderEntriesOf(Map.of(b, 2667, d, 5333));
    }

    @Test
    void neverSelectsAnIneligibleEndpoint() {
        Upstream upstream = weighted(a, b, c);

        Map<Endpoint, Integer> counts = select(upstream, 700, e -> !e.equals(b));

        assertThat(counts).containsOnlyKeys(a, c);
        assertThat(counts.get(a) + counts.get(c)).isEqualTo(700);
    }

    @Test
    void keepsRoughRatiosOfWeightsTooLargeForOneSchedule() {
        Endpoint huge = a.withWeight(3_000_000);
        Endpoint large = b.withWeight(1_000_001);

        Map<Endpoint, Integer> counts = select(weighted(huge, large), 40_000, e -> true);

        assertThat((double) counts.get(huge) / counts.get(large)).isCloseTo(3.0, offset(0.01));
    }

    @Test
    void selectsNothingWhenNoEndpointIsEligible() {
        assertThat(weighted(a, b, c).select(e -> false)).isEmpty();
    }

    private static Upstream weighted(Endpoint... endpoints) {
        return Upstream.builder("weighted")
                .endpoints(List.of(endpoints))
                .balancing(Balancing.WEIGHTED_ROUND_ROBIN)
                .build();
    }

    private static List<Endpoint> picks(Upstream upstream, int count) {
        List<Endpoint> picks = new ArrayList<>();
        for (int i = 0; i < count; i++) {
            picks.add(upstream.select(e -> true).orElseThrow());
        }
        return picks;
    }
}
