package io.parry.proxy;

import static org.assertj.core.api.Assertions.assertThat;

import io.parry.client.ClientOptions;
import io.parry.client.ClientTimeouts;
import io.parry.client.Endpoint;
import io.parry.client.HttpClient;
import io.parry.client.LocalResourceException;
import io.parry.client.PoolStats;
import io.parry.client.upstream.EndpointStatus;
import io.parry.client.upstream.Upstream;
import io.parry.http.HttpRequest;
import io.parry.http.HttpResponse;
import io.parry.server.EndedBy;
import io.parry.server.RequestLog;
import io.parry.server.Server;
import io.parry.testing.RawConnection;
import io.parry.testing.RawResponse;
import io.parry.testing.WebSocketUpstream;
import java.io.IOException;
import java.time.Duration;
import java.util.Queue;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * A gateway that cannot open a socket to its upstream (out of file descriptors, which clients holding
 * connections can cause) answers 503 and blames itself: the breaker stays closed and the endpoint in
 * rotation however often it happens, where the first such failures used to open the breaker and
 * every later handshake got "no healthy endpoint" (the 503 of the 10,000-session benchmark).
 */
class OutOfLocalResourcesTest {
    private static final int FAILURES = 30;

    private final Queue<RequestLog> logs = new ConcurrentLinkedQueue<>();
    private final AtomicInteger refusals = new AtomicInteger();
    private final RecordingObserver attempts = new RecordingObserver();
    private WebSocketUpstream upstream;
    private Endpoint endpoint;
    private ExhaustedClient client;
    private GuardedUpstream group;
    private Server gateway;

    @BeforeEach
    void start() {
        upstream = WebSocketUpstream.start();
        endpoint = Endpoint.of("127.0.0.1", upstream.port());
        client = new ExhaustedClient(HttpClient.ofDefault());
        group = GuardedUpstream.builder(Upstream.of("ws", endpoint))
                .client(client)
                .observer(new ProxyObserver() {
                    @Override
                    public void attemptEnded(
                            String upstream, Endpoint endpoint, int status, Throwable failure, long nanos) {
                        attempts.attemptEnded(upstream, endpoint, status, failure, nanos);
                    }

                    @Override
                    public void rejected(String upstream, Refusal reason) {
                        if (reason == Refusal.LOCAL_RESOURCES) {
                            refusals.incrementAndGet();
                        }
                    }
                })
                .build();
        gateway = Server.builder()
                .handler(ProxyHandler.builder(group).build())
                .listener(logs::add)
                .options(options -> options.host("127.0.0.1").port(0))
                .build()
                .start();
    }

    @AfterEach
    void stop() {
        gateway.stop(Duration.ofSeconds(5));
        group.close();
        client.close();
        upstream.close();
    }

    @Test
    void keepsBreakerClosedWhenTheGatewayCannotOpenSocketsForHandshakes() {
        client.exhausted = true;
        try (RawConnection connection = RawConnection.open("127.0.0.1", gateway.port())) {
            for (int i = 0; i < FAILURES; i++) {
                connection.send("GET /chat HTTP/1.1\nHost: h\nUpgrade: websocket\nConnection: Upgrade\n"
                        + "Sec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\nSec-WebSocket-Version: 13\n\n");
                RawResponse response = connection.readResponse();
                assertThat(response.status()).isEqualTo(503);
                assertThat(response.bodyText()).contains("cannot open another connection to upstream ws");
            }
        }
        client.exhausted = false;

        assertThat(group.breakerState(endpoint)).isEqualTo(BreakerState.CLOSED);
        EndpointStatus status = group.upstream().status().get(0);
        assertThat(status.ejected()).isFalse();
        assertThat(status.consecutiveFailures()).isZero();
        assertThat(attempts.failedAttempts()).isZero();
        assertThat(refusals.get()).isEqualTo(FAILURES);
        ProxyFailuresTest.awaitTrue(() -> logs.size() == FAILURES);
        assertThat(logs).allSatisfy(log -> assertThat(log.endedBy()).isEqualTo(EndedBy.SERVER));
        try (RawConnection connection = RawConnection.open("127.0.0.1", gateway.port())) {
            connection.send("GET /chat HTTP/1.1\nHost: h\nUpgrade: websocket\nConnection: Upgrade\n"
                    + "Sec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\nSec-WebSocket-Version: 13\n\n");
            assertThat(connection.readResponse().status()).isEqualTo(101);
        }
    }

    /** Fails every call as a client out of file descriptors does while {@link #exhausted}. */
    private static final class ExhaustedClient implements HttpClient {
        private final HttpClient client;
        volatile boolean exhausted;

        ExhaustedClient(HttpClient client) {
            this.client = client;
        }

        @Override
        public CompletionStage<HttpResponse> send(Endpoint endpoint, HttpRequest request) {
            return send(endpoint, request, client.options().timeouts());
        }

        @Override
        public CompletionStage<HttpResponse> send(Endpoint endpoint, HttpRequest request, ClientTimeouts timeouts) {
            if (exhausted) {
                return CompletableFuture.failedFuture(new LocalResourceException(
                        endpoint, new IOException("newSocketStream(..) failed: Too many open files")));
            }
            return client.send(endpoint, request, timeouts);
        }

        @Override
        public CompletionStage<HttpResponse> send(HttpRequest request) {
            return client.send(request);
        }

        @Override
        public PoolStats poolStats(Endpoint endpoint) {
            return client.poolStats(endpoint);
        }

        @Override
        public ClientOptions options() {
            return client.options();
        }

        @Override
        public void close() {
            client.close();
        }
    }
}
