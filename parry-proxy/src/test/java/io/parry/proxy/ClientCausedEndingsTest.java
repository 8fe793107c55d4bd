package io.parry.proxy;

import static org.assertj.core.api.Assertions.assertThat;

import io.parry.client.Endpoint;
import io.parry.client.upstream.EndpointStatus;
import io.parry.client.upstream.Upstream;
import io.parry.testing.FaultyUpstream;
import io.parry.testing.RawConnection;
import io.parry.testing.RawResponse;
import io.parry.testing.ServerExtension;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.net.http.HttpResponse.BodyHandlers;
import java.time.Duration;
import java.util.function.BooleanSupplier;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * A client alone must never move an upstream's shared state: after far more client-caused endings
 * than the default breaker's thresholds (10 calls, 50 %), the breaker stays closed, the endpoint in
 * rotation with no failure counted, and the next user is served.
 */
class ClientCausedEndingsTest {
    private static final int ENDINGS = 50;

    @RegisterExtension
    static final FaultyUpstream upstream = FaultyUpstream.start();

    private static final SwappableHandler handler = new SwappableHandler();

    @RegisterExtension
    static final ServerExtension gateway = ServerExtension.of(handler);

    private GuardedUpstream group;
    private Endpoint endpoint;

    @AfterEach
    void returnsEveryConnectionAndPlace() {
        awaitTrue(() -> group.inFlight() == 0);
        awaitTrue(() -> group.client().poolStats(endpoint).active() == 0);
        group.close();
    }

    @Test
    void keepsBreakerClosedWhenClientSendsMalformedChunks() throws Exception {
        proxy();

        for (int i = 0; i < ENDINGS; i++) {
            try (RawConnection connection = gateway.connect()) {
                connection.send("POST /upload HTTP/1.1\nHost: h\nTransfer-Encoding: chunked\n\n5\nhello\nzz\n");
                RawResponse response = connection.readResponse();
                assertThat(response.status()).isEqualTo(400);
            }
            awaitTrue(() -> group.inFlight() == 0);
        }

        assertUpstreamUntouched();
    }

    private void proxy() {
        endpoint = Endpoint.of("127.0.0.1", upstream.port());
        group = GuardedUpstream.builder(Upstream.of("faulty", endpoint))
                .maxConcurrent(ENDINGS)
                .build();
        handler.set(ProxyHandler.to(group));
    }

    /** The breaker closed, no failure counted on the endpoint, and a user's request served. */
    private void assertUpstreamUntouched() throws Exception {
        assertThat(group.breakerState(endpoint)).isEqualTo(BreakerState.CLOSED);
        EndpointStatus status = group.upstream().status().get(0);
        assertThat(status.healthy()).isTrue();
        assertThat(status.ejected()).isFalse();
        assertThat(status.consecutiveFailures()).isZero();
        HttpResponse<String> served = gateway.client()
                .send(HttpRequest.newBuilder(gateway.uri("/after")).build(), BodyHandlers.ofString());
        assertThat(served.statusCode()).isEqualTo(200);
    }

    private static void awaitTrue(BooleanSupplier condition) {
        ProxyFailuresTest.awaitTrue(condition);
    }

    static Duration timeout() {
        return Duration.ofSeconds(5);
    }
}
