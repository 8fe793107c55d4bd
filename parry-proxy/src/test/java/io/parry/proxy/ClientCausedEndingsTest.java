package io.parry.proxy;

import static org.assertj.core.api.Assertions.assertThat;

import io.parry.client.Endpoint;
import io.parry.client.upstream.EndpointStatus;
import io.parry.client.upstream.Upstream;
import io.parry.proxy.ProxyObserver.ClientEnding;
import io.parry.server.EndedBy;
import io.parry.server.RequestLimits;
import io.parry.server.RequestLog;
import io.parry.server.Server;
import io.parry.server.ServerTimeouts;
import io.parry.testing.Fault;
import io.parry.testing.FaultyUpstream;
import io.parry.testing.RawConnection;
import java.io.IOException;
import java.io.OutputStream;
import java.io.UncheckedIOException;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.net.http.HttpResponse.BodyHandlers;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Queue;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.function.BooleanSupplier;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * A client alone must never move an upstream's shared state. After far more client-caused endings
 * than the default breaker's thresholds (10 calls, 50 %) and outlier ejection's (5 in a row), the
 * breaker stays closed, the endpoint stays in rotation with no failure counted, no retry is spent, the
 * bulkhead and the pool have every place back, and the next user is served. Failures the upstream
 * causes still open the breaker.
 */
class ClientCausedEndingsTest {
    private static final int ENDINGS = 50;
    private static final int BODY_LIMIT = 64 * 1024;
    /** Larger than the socket buffers on both sides, so that a client that does not read holds it up. */
    private static final int LARGE_RESPONSE = 8 * 1024 * 1024;
    /** Four times the failures in a row that eject an endpoint (a breaker hears of the head only). */
    private static final int SLOW_READERS = 20;

    @RegisterExtension
    static final FaultyUpstream upstream = FaultyUpstream.start();

    private static final SwappableHandler handler = new SwappableHandler();
    private static final Queue<RequestLog> logs = new ConcurrentLinkedQueue<>();
    private static Server gateway;

    private final RecordingObserver observer = new RecordingObserver();
    private GuardedUpstream group;
    private Endpoint endpoint;

    @BeforeAll
    static void startGateway() {
        gateway = Server.builder()
                .handler(handler)
                .listener(logs::add)
                .options(options -> options.host("127.0.0.1")
                        .port(0)
                        .limits(RequestLimits.builder().maxBodySize(BODY_LIMIT).build())
                        .timeouts(ServerTimeouts.builder()
                                .request(Duration.ofSeconds(2))
                                .write(Duration.ofMillis(500))
                                .build()))
                .build()
                .start();
    }

    @AfterAll
    static void stopGateway() {
        gateway.stop(Duration.ofSeconds(5));
    }

    @BeforeEach
    void proxy() throws Exception {
        proxy(ProxyHandler.builder(group()));
    }

    @AfterEach
    void returnsEveryConnectionAndPlace() {
        awaitTrue(() -> group.inFlight() == 0);
        awaitTrue(() -> group.client().poolStats(endpoint).active() == 0);
        group.close();
    }

    @Test
    void keepsBreakerClosedWhenClientSendsMalformedChunks() throws Exception {
        for (int i = 0; i < ENDINGS; i++) {
            try (RawConnection connection = connect()) {
                connection.send("POST /upload HTTP/1.1\nHost: h\nTransfer-Encoding: chunked\n\n5\nhello\nzz\n");
                assertThat(connection.readResponse().status()).isEqualTo(400);
            }
            awaitTrue(() -> group.inFlight() == 0);
        }

        assertUpstreamUntouched(ClientEnding.MALFORMED_BODY);
        assertThat(observer.ended(ClientEnding.MALFORMED_BODY)).isEqualTo(ENDINGS);
        assertThat(logs).filteredOn(log -> log.status() == 400).hasSize(ENDINGS).allSatisfy(log -> assertThat(
                        log.endedBy())
                .isEqualTo(EndedBy.CLIENT));
    }

    @Test
    void keepsBreakerClosedWhenClientClosesMidBody() throws Exception {
        for (int i = 0; i < ENDINGS; i++) {
            try (RawConnection connection = connect()) {
                connection.send("POST /upload HTTP/1.1\nHost: h\nTransfer-Encoding: chunked\n\n5\nhello\n");
                connection.shutdownOutput();
                assertThat(connection.isClosedByPeer()).isTrue();
            }
            awaitTrue(() -> group.inFlight() == 0);
        }

        assertUpstreamUntouched(ClientEnding.CLOSED_MID_BODY);
    }

    @Test
    void keepsBreakerClosedWhenClientResetsMidBody() throws Exception {
        for (int i = 0; i < ENDINGS; i++) {
            try (Socket socket = socket(0)) {
                write(socket, "POST /upload HTTP/1.1\r\nHost: h\r\nContent-Length: 100\r\n\r\nhello");
                socket.setSoLinger(true, 0); // The close sends a reset.
            }
            awaitTrue(() -> group.inFlight() == 0);
        }

        assertUpstreamUntouched(ClientEnding.CLOSED_MID_BODY);
    }

    @Test
    void keepsBreakerClosedWhenClientClosesWhileTheReplayBufferFills() throws Exception {
        group.close();
        proxy(ProxyHandler.builder(group())
                .retry(RetryPolicy.builder().replayBufferSize(4096).build()));

        for (int i = 0; i < ENDINGS; i++) {
            try (RawConnection connection = connect()) {
                connection.send("PUT /upload HTTP/1.1\nHost: h\nContent-Length: 1000\n\nonly a part");
                connection.shutdownOutput();
                assertThat(connection.isClosedByPeer()).isTrue();
            }
            awaitTrue(() -> group.inFlight() == 0);
        }

        assertUpstreamUntouched(ClientEnding.CLOSED_MID_BODY);
    }

    @Test
    void keepsBreakerClosedWhenClientSendsTooLargeABody() throws Exception {
        String chunk = "x".repeat(BODY_LIMIT + 1);
        for (int i = 0; i < ENDINGS; i++) {
            try (RawConnection connection = connect()) {
                connection.send("POST /upload HTTP/1.1\nHost: h\nTransfer-Encoding: chunked\n\n"
                        + Integer.toHexString(chunk.length()) + "\n" + chunk + "\n0\n\n");
                assertThat(connection.readResponse().status()).isEqualTo(413);
            }
            awaitTrue(() -> group.inFlight() == 0);
        }

        assertUpstreamUntouched(ClientEnding.BODY_TOO_LARGE);
    }

    @Test
    void keepsBreakerClosedWhenClientSendsItsBodyTooSlowly() throws Exception {
        List<RawConnection> connections = new ArrayList<>();
        try {
            for (int i = 0; i < ENDINGS; i++) {
                connections.add(connect().send("POST /upload HTTP/1.1\nHost: h\nContent-Length: 100\n\nhello"));
            }
            for (RawConnection connection : connections) {
                assertThat(connection.readResponse().status()).isEqualTo(408);
            }
        } finally {
            connections.forEach(RawConnection::close);
        }
        awaitTrue(() -> group.inFlight() == 0);

        assertUpstreamUntouched(ClientEnding.BODY_TIMEOUT);
    }

    @Test
    void keepsBreakerClosedWhenClientGoesAwayBeforeTheResponse() throws Exception {
        upstream.fault(Fault.slowFirstByte(Duration.ofMillis(1500)));
        List<RawConnection> connections = new ArrayList<>();
        try {
            for (int i = 0; i < ENDINGS; i++) {
                connections.add(connect().send("GET /slow HTTP/1.1\nHost: h\n\n"));
            }
            upstream.awaitRequests(ENDINGS + 1, Duration.ofSeconds(5));
        } finally {
            connections.forEach(RawConnection::close);
        }
        awaitTrue(() -> group.inFlight() == 0);
        upstream.fault(Fault.none());

        assertUpstreamUntouched(ClientEnding.ABANDONED);
    }

    @Test
    void keepsEndpointInRotationWhenClientReadsTooSlowly() throws Exception {
        upstream.respond(200, "x".repeat(LARGE_RESPONSE));
        List<Socket> readers = new ArrayList<>();
        try {
            for (int i = 0; i < SLOW_READERS; i++) {
                Socket reader = socket(4096);
                write(reader, "GET /large HTTP/1.1\r\nHost: h\r\n\r\n");
                readers.add(reader);
            }
            // Nobody reads: the server's write timeout gives up on each (or its request timeout, when
            // the upstream, busy writing to the others, is late with a head).
            awaitTrue(() -> observer.clientEndings() == SLOW_READERS, Duration.ofSeconds(20));
        } finally {
            closeAll(readers);
        }
        upstream.respond(200, "ok");

        assertUpstreamUntouched(ClientEnding.STOPPED_READING, SLOW_READERS);
    }

    @Test
    void keepsEndpointInRotationWhenClientResetsWhileTheResponseIsWritten() throws Exception {
        upstream.respond(200, "x".repeat(LARGE_RESPONSE));
        for (int i = 0; i < SLOW_READERS; i++) {
            try (Socket reader = socket(4096)) {
                write(reader, "GET /large HTTP/1.1\r\nHost: h\r\n\r\n");
                assertThat(reader.getInputStream().read()).isEqualTo('H');
                reader.setSoLinger(true, 0);
            }
            awaitTrue(() -> group.inFlight() == 0);
        }
        upstream.respond(200, "ok");

        assertUpstreamUntouched(ClientEnding.STOPPED_READING, SLOW_READERS);
    }

    @Test
    void opensBreakerWhenTheUpstreamDropsRequests() throws Exception {
        upstream.fault(Fault.closeBeforeResponse());

        assertUpstreamFailuresOpenTheBreaker(502);
    }

    @Test
    void opensBreakerWhenTheUpstreamAnswers503() throws Exception {
        upstream.fault(Fault.status(503));

        assertUpstreamFailuresOpenTheBreaker(503);
    }

    private void assertUpstreamFailuresOpenTheBreaker(int status) throws Exception {
        for (int i = 0; i < 20 && group.breakerState(endpoint) == BreakerState.CLOSED; i++) {
            assertThat(get("/failing").statusCode()).isEqualTo(status);
        }

        assertThat(group.breakerState(endpoint)).isEqualTo(BreakerState.OPEN);
        assertThat(group.upstream().status().get(0).consecutiveFailures()).isPositive();
        HttpResponse<String> refused = get("/refused");
        assertThat(refused.statusCode()).isEqualTo(503);
        assertThat(refused.body()).contains("no healthy endpoint");
        assertThat(observer.clientEndings()).isZero();
        awaitTrue(() -> logs.stream().anyMatch(log -> log.endedBy() == EndedBy.UPSTREAM));
    }

    private GuardedUpstream group() throws Exception {
        endpoint = Endpoint.of("127.0.0.1", upstream.port());
        group = GuardedUpstream.builder(Upstream.of("faulty", endpoint))
                .maxConcurrent(ENDINGS + 10)
                .observer(observer)
                .build();
        return group;
    }

    /** Proxies with the handler and warms a pooled connection up, so each ending finds its call started. */
    private void proxy(ProxyHandler.Builder proxy) throws Exception {
        handler.set(proxy.build());
        assertThat(get("/warm").statusCode()).isEqualTo(200);
        awaitTrue(() -> group.inFlight() == 0);
        logs.clear();
    }

    /**
     * The breaker closed, no failure counted on the endpoint or told as an attempt, no retry, every
     * ending told to the observer, and a user's request served.
     */
    private void assertUpstreamUntouched(ClientEnding ending) throws Exception {
        assertUpstreamUntouched(ending, ENDINGS);
    }

    private void assertUpstreamUntouched(ClientEnding ending, int endings) throws Exception {
        assertThat(group.breakerState(endpoint)).isEqualTo(BreakerState.CLOSED);
        EndpointStatus status = group.upstream().status().get(0);
        assertThat(status.healthy()).isTrue();
        assertThat(status.ejected()).isFalse();
        assertThat(status.consecutiveFailures()).isZero();
        assertThat(observer.failedAttempts()).isZero();
        assertThat(observer.retries()).isZero();
        awaitTrue(() -> observer.clientEndings() == endings);
        assertThat(observer.ended(ending)).isPositive();
        // Every upstream connection a broken exchange used was closed, none kept in the pool half-used.
        awaitTrue(() ->
                upstream.openConnections() == group.client().poolStats(endpoint).idle());
        HttpResponse<String> served = get("/after");
        assertThat(served.statusCode()).isEqualTo(200);
        assertThat(group.breakerState(endpoint)).isEqualTo(BreakerState.CLOSED);
    }

    private static HttpResponse<String> get(String path) throws Exception {
        return HttpClient.newBuilder()
                .version(HttpClient.Version.HTTP_1_1)
                .build()
                .send(
                        HttpRequest.newBuilder(java.net.URI.create("http://127.0.0.1:" + gateway.port() + path))
                                .build(),
                        BodyHandlers.ofString());
    }

    private static RawConnection connect() {
        return RawConnection.open("127.0.0.1", gateway.port());
    }

    /** A socket to the gateway; a small receive buffer (when not 0) makes a slow reader. */
    private static Socket socket(int receiveBuffer) throws IOException {
        Socket socket = new Socket();
        if (receiveBuffer > 0) {
            socket.setReceiveBufferSize(receiveBuffer);
        }
        socket.connect(new InetSocketAddress("127.0.0.1", gateway.port()), 5_000);
        socket.setSoTimeout(10_000);
        return socket;
    }

    private static void write(Socket socket, String text) throws IOException {
        OutputStream out = socket.getOutputStream();
        out.write(text.getBytes(StandardCharsets.ISO_8859_1));
        out.flush();
    }

    private static void closeAll(List<Socket> sockets) {
        for (Socket socket : sockets) {
            try {
                socket.close();
            } catch (IOException e) {
                throw new UncheckedIOException(e);
            }
        }
    }

    private static void awaitTrue(BooleanSupplier condition) {
        ProxyFailuresTest.awaitTrue(condition);
    }

    private static void awaitTrue(BooleanSupplier condition, Duration timeout) {
        long deadline = System.nanoTime() + timeout.toNanos();
        while (!condition.getAsBoolean()) {
            if (System.nanoTime() > deadline) {
                throw new AssertionError("condition not met within " + timeout);
            }
            try {
                Thread.sleep(10);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                throw new AssertionError(e);
            }
        }
    }
}
