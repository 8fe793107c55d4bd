package io.parry.proxy;

import static io.parry.proxy.ProxyFailuresTest.awaitTrue;
import static org.assertj.core.api.Assertions.assertThat;

import io.parry.client.Endpoint;
import io.parry.client.upstream.Upstream;
import io.parry.server.RequestLimits;
import io.parry.testing.Fault;
import io.parry.testing.FaultyUpstream;
import io.parry.testing.ServerExtension;
import java.net.http.HttpRequest;
import java.net.http.HttpRequest.BodyPublishers;
import java.net.http.HttpResponse;
import java.net.http.HttpResponse.BodyHandlers;
import java.time.Duration;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

class ProxyRetryTest {
    private static final RetryPolicy QUICK = RetryPolicy.builder()
            .backoff(Duration.ofMillis(1))
            .maxBackoff(Duration.ofMillis(5))
            .build();

    @RegisterExtension
    static final FaultyUpstream upstream = FaultyUpstream.start();

    @RegisterExtension
    static final FaultyUpstream other = FaultyUpstream.start();

    private static final SwappableHandler handler = new SwappableHandler();

    @RegisterExtension
    static final ServerExtension gateway = ServerExtension.of(
            handler, options -> options.limits(RequestLimits.builder().build()));

    private GuardedUpstream group;

    @AfterEach
    void returnsEveryConnection() {
        Endpoint endpoint = Endpoint.of("127.0.0.1", upstream.port());
        awaitTrue(() -> group.client().poolStats(endpoint).active() == 0);
        awaitTrue(() -> group.inFlight() == 0);
        group.close();
    }

    @Test
    void retriesAGetThatGot503() throws Exception {
        upstream.faultFirst(1, Fault.status(503));
        proxy(single(), QUICK, BreakerOptions.ofDefault());

        assertThat(send("GET", "/r", null).statusCode()).isEqualTo(200);
        assertThat(upstream.requests()).isEqualTo(2);
    }

    @Test
    void triesNoMoreThanMaxAttemptsAndPassesTheLast503On() throws Exception {
        upstream.fault(Fault.status(503));
        proxy(single(), QUICK, BreakerOptions.disabled());

        HttpResponse<String> response = send("GET", "/always", null);

        assertThat(response.statusCode()).isEqualTo(503);
        assertThat(response.headers().firstValue("content-type").orElse(""))
                .as("the upstream's own answer, not the proxy's problem")
                .doesNotContain("problem");
        assertThat(upstream.requests()).isEqualTo(QUICK.maxAttempts());
    }

    @Test
    void retriesA503OnTheOtherEndpoint() throws Exception {
        upstream.fault(Fault.status(503));
        Upstream two = Upstream.builder("two")
                .endpoint(Endpoint.of("127.0.0.1", upstream.port()))
                .endpoint(Endpoint.of("127.0.0.1", other.port()))
                .build();
        proxy(two, QUICK.toBuilder().maxAttempts(2).build(), BreakerOptions.disabled());

        for (int i = 0; i < 4; i++) {
            assertThat(send("GET", "/g" + i, null).statusCode()).isEqualTo(200);
        }
        assertThat(other.requests()).isEqualTo(4);
        assertThat(upstream.requests()).isPositive();
    }

    @Test
    void passesA503ToAPostWithoutRetrying() throws Exception {
        upstream.fault(Fault.status(503));
        proxy(single(), QUICK, BreakerOptions.ofDefault());

        assertThat(send("POST", "/p", "body").statusCode()).isEqualTo(503);
        assertThat(upstream.requests()).isEqualTo(1);
    }

    @Test
    void failsOverFromARefusingEndpointForEveryMethod() throws Exception {
        Upstream two = Upstream.builder("two")
                .endpoint(Endpoint.of("127.0.0.1", FaultyUpstream.refusedPort()))
                .endpoint(Endpoint.of("127.0.0.1", upstream.port()))
                .build();
        proxy(two, QUICK, BreakerOptions.disabled());

        for (int i = 0; i < 4; i++) {
            assertThat(send("GET", "/g" + i, null).statusCode()).isEqualTo(200);
            assertThat(send("POST", "/p" + i, "data").statusCode()).isEqualTo(200);
        }
        assertThat(upstream.requests()).isEqualTo(8);
    }

    @Test
    void opensTheBreakerAndStopsCallingAFailingEndpoint() throws Exception {
        upstream.fault(Fault.status(503));
        proxy(
                single(),
                RetryPolicy.none(),
                BreakerOptions.builder()
                        .slidingWindowSize(2)
                        .minimumCalls(2)
                        .openDuration(Duration.ofMinutes(1))
                        .build());

        send("GET", "/1", null);
        send("GET", "/2", null);
        HttpResponse<String> third = send("GET", "/3", null);

        assertThat(third.statusCode()).isEqualTo(503);
        assertThat(third.body()).contains("no healthy endpoint");
        assertThat(upstream.requests()).isEqualTo(2);
        assertThat(group.breakerState(Endpoint.of("127.0.0.1", upstream.port())))
                .isEqualTo(BreakerState.OPEN);
    }

    @Test
    void stopsRetryingWhenTheBudgetIsSpent() throws Exception {
        upstream.faultFirst(1, Fault.status(503));
        proxy(
                single(),
                QUICK.toBuilder().budgetPercent(0).minRetriesPerSecond(0).build(),
                BreakerOptions.disabled());

        assertThat(send("GET", "/b", null).statusCode()).isEqualTo(503);
        assertThat(upstream.requests()).isEqualTo(1);
    }

    @Test
    void replaysASmallBodyFromTheReplayBuffer() throws Exception {
        upstream.faultFirst(1, Fault.closeBeforeResponse());
        proxy(single(), QUICK.toBuilder().replayBufferSize(4096).build(), BreakerOptions.disabled());

        assertThat(send("PUT", "/put", "y".repeat(1024)).statusCode()).isEqualTo(200);
        assertThat(upstream.requests()).isEqualTo(2);
        assertThat(upstream.lastRequestBodyLength()).isEqualTo(1024);
    }

    @Test
    void neverRetriesAStreamedBodyThatWasSent() throws Exception {
        upstream.faultFirst(1, Fault.closeBeforeResponse());
        proxy(single(), QUICK, BreakerOptions.disabled());

        assertThat(send("PUT", "/put", "y".repeat(1024)).statusCode()).isEqualTo(502);
        assertThat(upstream.requests()).isEqualTo(1);
    }

    private Upstream single() {
        return Upstream.of("single", Endpoint.of("127.0.0.1", upstream.port()));
    }

    private void proxy(Upstream target, RetryPolicy retry, BreakerOptions breaker) {
        group = GuardedUpstream.builder(target).breaker(breaker).build();
        handler.set(ProxyHandler.builder(group).retry(retry).build());
    }

    private static HttpResponse<String> send(String method, String path, String body) throws Exception {
        HttpRequest.BodyPublisher publisher = body == null ? BodyPublishers.noBody() : BodyPublishers.ofString(body);
        return gateway.client()
                .send(
                        HttpRequest.newBuilder(gateway.uri(path))
                                .method(method, publisher)
                                .build(),
                        BodyHandlers.ofString());
    }
}
