package io.parry.micrometer;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import io.parry.client.Endpoint;
import io.parry.client.HttpClient;
import io.parry.client.UpstreamConnectException;
import io.parry.client.upstream.Upstream;
import io.parry.http.HttpMethod;
import io.parry.http.HttpRequest;
import io.parry.http.HttpResponse;
import io.parry.testing.Fault;
import io.parry.testing.FaultyUpstream;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

class ClientMetricsTest {
    @RegisterExtension
    static final FaultyUpstream upstream = FaultyUpstream.start();

    private final SimpleMeterRegistry registry = new SimpleMeterRegistry();
    private final ClientMetrics metrics = ClientMetrics.of(registry, "users");
    private final HttpClient client = HttpClient.builder().filter(metrics).build();
    private final Endpoint endpoint = Endpoint.parse(upstream.endpointAddress());

    @AfterEach
    void close() {
        client.close();
    }

    @Test
    void timesCallsPerEndpointAndStatusClass() {
        assertThat(call(endpoint)).isEqualTo("ok");
        upstream.fault(Fault.status(503));
        call(endpoint);

        assertThat(registry.get("parry.client.requests")
                        .tags("client", "users", "endpoint", endpoint.authority(), "status", "2xx")
                        .timer()
                        .count())
                .isEqualTo(1);
        assertThat(registry.get("parry.client.requests")
                        .tags("endpoint", endpoint.authority(), "status", "5xx")
                        .timer()
                        .count())
                .isEqualTo(1);
        assertThat(registry.get("parry.client.connect.failures")
                        .tag("endpoint", endpoint.authority())
                        .counter()
                        .count())
                .isZero();
    }

    @Test
    void countsConnectFailuresAgainstARefusedPort() {
        Endpoint refused = Endpoint.of("127.0.0.1", FaultyUpstream.refusedPort());

        assertThatThrownBy(() -> call(refused)).hasCauseInstanceOf(UpstreamConnectException.class);

        assertThat(registry.get("parry.client.connect.failures")
                        .tags("client", "users", "endpoint", refused.authority())
                        .counter()
                        .count())
                .isEqualTo(1);
        assertThat(registry.get("parry.client.requests")
                        .tags("endpoint", refused.authority(), "status", "UpstreamConnectException")
                        .timer()
                        .count())
                .isEqualTo(1);
    }

    @Test
    void gaugesThePoolsOfAnUpstream() {
        metrics.bindPools(client, Upstream.of("users", endpoint));
        call(endpoint);

        Eventually.until(
                "the connection back in the pool",
                () -> registry.get("parry.client.pool.idle")
                                .tags("client", "users", "upstream", "users", "endpoint", endpoint.authority())
                                .gauge()
                                .value()
                        == 1);
        assertThat(registry.get("parry.client.pool.active").gauge().value()).isZero();
        assertThat(registry.get("parry.client.pool.pending").gauge().value()).isZero();
    }

    @Test
    void refusesABlankClientName() {
        assertThatThrownBy(() -> ClientMetrics.of(registry, " "))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessage("client: blank (expected: a name)");
    }

    /** Sends a GET and reads the body, which returns the connection to the pool. */
    private String call(Endpoint target) {
        HttpResponse response = client.send(target, HttpRequest.of(HttpMethod.GET, "/"))
                .toCompletableFuture()
                .join();
        return response.body().aggregate(1024).toCompletableFuture().join().toStringUtf8();
    }
}
