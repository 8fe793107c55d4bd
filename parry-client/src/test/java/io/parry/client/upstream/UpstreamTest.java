package io.parry.client.upstream;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.parry.client.Endpoint;
import java.util.List;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import org.junit.jupiter.api.Test;

class UpstreamTest {
    private final Endpoint a = Endpoint.of("10.0.0.1", 80);
    private final Endpoint b = Endpoint.of("10.0.0.2", 80);

    @Test
    void ofMakesARoundRobinGroupWithDefaultOutlierDetectionAndNoHealthCheck() {
        Upstream upstream = Upstream.of("api", a, b);

        assertThat(upstream.name()).isEqualTo("api");
        assertThat(upstream.endpoints()).containsExactly(a, b);
        assertThat(upstream.balancing()).isEqualTo(Balancing.ROUND_ROBIN);
        assertThat(upstream.outlierDetection()).isSameAs(OutlierDetection.ofDefault());
        assertThat(upstream.healthCheck()).isEmpty();
    }

    @Test
    void builderCombinesEndpointsAndSettings() {
        HealthCheck check = HealthCheck.builder("/health").build();
        Endpoint c = Endpoint.of("10.0.0.3", 80).withWeight(3);

        Upstream upstream = Upstream.builder("api")
                .endpoints(List.of(a, b))
                .endpoint(c)
                .balancing(Balancing.WEIGHTED_ROUND_ROBIN)
                .outlierDetection(OutlierDetection.disabled())
                .healthCheck(check)
                .build();

        assertThat(upstream.endpoints()).containsExactly(a, b, c);
        assertThat(upstream.balancing()).isEqualTo(Balancing.WEIGHTED_ROUND_ROBIN);
        assertThat(upstream.outlierDetection()).isSameAs(OutlierDetection.disabled());
        assertThat(upstream.healthCheck()).contains(check);
    }

    @Test
    void rejectsAGroupWithoutEndpoints() {
        assertThatThrownBy(() -> Upstream.builder("api").build())
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessage("endpoints: empty (expected: at least one endpoint)");
    }

    @Test
    void rejectsTheSameHostAndPortTwiceWhateverTheWeights() {
        assertThatThrownBy(() -> Upstream.of("api", a, b, a.withWeight(2)))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessage("endpoints: 10.0.0.1:80 twice (expected: each host and port once)");
    }

    @Test
    void rejectsABlankName() {
        assertThatThrownBy(() -> Upstream.of(" ", a))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessage("name: blank (expected: a name)");
    }

    @Test
    void rejectsNullsByName() {
        assertThatThrownBy(() -> Upstream.builder(null)).hasMessage("name");
        assertThatThrownBy(() -> Upstream.builder("api").endpoint(null)).hasMessage("endpoint");
        assertThatThrownBy(() -> Upstream.builder("api").balancing(null)).hasMessage("balancing");
        assertThatThrownBy(() -> Upstream.of("api", a).select(null)).hasMessage("eligible");
        assertThatThrownBy(() -> Upstream.of("api", a).callStarted(null)).hasMessage("endpoint");
    }

    @Test
    void rejectsCallsToAnEndpointOutsideTheGroup() {
        Upstream upstream = Upstream.of("api", a);

        assertThatThrownBy(() -> upstream.callStarted(b))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessage("endpoint: 10.0.0.2:80 (expected: one of upstream api)");
    }

    @Test
    void acceptsAnEqualEndpointInstance() {
        Upstream upstream = Upstream.of("api", a, b);

        upstream.callStarted(Endpoint.of("10.0.0.2", 80));

        assertThat(upstream.status()).extracting(EndpointStatus::inFlight).containsExactly(0, 1);
    }

    @Test
    void reportsEveryEndpointHealthyAtFirst() {
        Upstream upstream = Upstream.of("api", a, b);

        assertThat(upstream.hasHealthyEndpoint()).isTrue();
        assertThat(upstream.status())
                .containsExactly(
                        new EndpointStatus(a, true, false, true, 0, 0), new EndpointStatus(b, true, false, true, 0, 0));
    }

    @Test
    void startingHealthChecksWithoutAHealthCheckDoesNothing() {
        Upstream upstream = Upstream.of("api", a);
        ScriptedSender sender = new ScriptedSender();
        ScheduledExecutorService scheduler = Executors.newSingleThreadScheduledExecutor();
        try {
            upstream.startHealthChecks(sender, scheduler);
            upstream.close();

            assertThatThrownBy(() -> upstream.startHealthChecks(sender, scheduler))
                    .isInstanceOf(IllegalStateException.class)
                    .hasMessage("upstream api is closed");
        } finally {
            scheduler.shutdownNow();
        }
    }

    @Test
    void anAbandonedCallEndsWithoutResettingOrAddingFailures() {
        Upstream group = Upstream.of("g", a);
        group.callStarted(a);
        group.callFinished(a, false);
        group.callStarted(a);

        group.callAbandoned(a);

        assertThat(group.status().get(0).inFlight()).isZero();
        assertThat(group.status().get(0).consecutiveFailures()).isEqualTo(1);
    }
}
