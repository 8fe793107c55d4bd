package io.parry.it.overload;

import static org.assertj.core.api.Assertions.assertThat;

import io.parry.http.HttpResponse;
import io.parry.it.http2.RawHttp2Connection;
import io.parry.server.Handler;
import io.parry.server.Overload;
import io.parry.server.OverloadOptions;
import io.parry.server.OverloadReason;
import io.parry.server.Priority;
import io.parry.server.Server;
import io.parry.server.routing.Router;
import io.parry.testing.NettyLeakExtension;
import io.parry.testing.RawConnection;
import io.parry.testing.RawResponse;
import java.net.Socket;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse.BodyHandlers;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.Semaphore;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.BooleanSupplier;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/** Server-wide shedding on a real server: each signal forced, priorities, health exempt, recovery. */
@ExtendWith(NettyLeakExtension.class)
class OverloadTest {
    private final Overload overload = Overload.of(OverloadOptions.off());
    private final List<CompletableFuture<HttpResponse>> slow = new ArrayList<>();
    private final Semaphore slowEntered = new Semaphore(0);
    private final AtomicInteger uploadsHandled = new AtomicInteger();
    private final CountDownLatch loopBlocked = new CountDownLatch(1);
    private final CountDownLatch releaseLoop = new CountDownLatch(1);
    private final List<RawConnection> connections = new ArrayList<>();
    private Server server;

    @BeforeEach
    void start() {
        Router router = Router.builder()
                .get("/sheddable", text("sheddable"), route -> route.filter(overload.filter(Priority.SHEDDABLE)))
                .get("/normal", text("normal"), route -> route.filter(overload.filter(Priority.NORMAL)))
                .get("/critical", text("critical"), route -> route.filter(overload.filter(Priority.CRITICAL)))
                .get("/slow", this::slow, route -> route.filter(overload.filter(Priority.NORMAL)))
                .get("/slow-critical", this::slow, route -> route.filter(overload.filter(Priority.CRITICAL)))
                .post("/upload", this::upload, route -> route.filter(overload.filter(Priority.NORMAL)))
                .get("/block", this::blockLoop)
                .get("/health", text("up"))
                .build();
        server = Server.builder()
                .port(0)
                .host("127.0.0.1")
                .options(options -> options.eventLoopThreads(2))
                .overload(overload)
                .handler(router)
                .build()
                .start();
    }

    @AfterEach
    void stop() {
        releaseLoop.countDown();
        synchronized (slow) {
            slow.forEach(future -> future.complete(HttpResponse.ofText("done")));
        }
        connections.forEach(RawConnection::close);
        server.stop(Duration.ofSeconds(2));
    }

    @Test
    void shedsSheddableRoutesFirstAndCriticalRoutesLast() throws Exception {
        overload.update(OverloadOptions.builder().maxInFlight(4).build());
        holdSlow("/slow", 3);

        assertThat(get("/sheddable").status()).isEqualTo(503);
        assertThat(get("/normal").status()).isEqualTo(200);
        assertThat(get("/critical").status()).isEqualTo(200);

        holdSlow("/slow", 1);
        assertThat(get("/normal").status()).isEqualTo(503);
        assertThat(get("/critical").status()).isEqualTo(200);

        holdSlow("/slow-critical", 1);
        assertThat(get("/critical").status()).isEqualTo(503);
        assertThat(get("/health").status()).isEqualTo(200);
        assertThat(overload.shed(OverloadReason.IN_FLIGHT)).isEqualTo(3);

        releaseSlow();
        await(() -> overload.inFlight() == 0);
        assertThat(get("/sheddable").status()).isEqualTo(200);
    }

    @Test
    void answersWithRetryAfterWhileTheClientStillHoldsTheBody() throws Exception {
        overload.update(OverloadOptions.builder()
                .maxInFlight(1)
                .retryAfter(Duration.ofMillis(2500))
                .build());
        holdSlow("/slow", 1);

        RawConnection upload = connect();
        upload.send("POST /upload HTTP/1.1\nHost: a\nContent-Length: 1000000\n\n" + "x".repeat(100));
        RawResponse response = upload.readResponse();

        assertThat(response.status()).isEqualTo(503);
        assertThat(response.header("retry-after")).isEqualTo("3");
        assertThat(response.header("content-type")).startsWith("application/problem+json");
        assertThat(response.bodyText()).contains("too many requests in flight");
        assertThat(response.header("connection")).isEqualToIgnoringCase("close");
        assertThat(uploadsHandled).hasValue(0);
    }

    @Test
    void answersAnHttp2StreamWhoseBodyIsStillComing() throws Exception {
        overload.update(OverloadOptions.builder().maxInFlight(1).build());
        holdSlow("/slow", 1);

        try (RawHttp2Connection h2 = RawHttp2Connection.open(new Socket("127.0.0.1", server.port()))) {
            h2.headers(1, RawHttp2Connection.get("/upload").method("POST").add("content-length", "1000000"), false);
            RawHttp2Connection.Response response = h2.response(1);

            assertThat(response.head().status().toString()).isEqualTo("503");
            assertThat(response.head().get("retry-after").toString()).isEqualTo("1");
        }
        assertThat(uploadsHandled).hasValue(0);
    }

    @Test
    void doesNotAskForABodyItSheds() throws Exception {
        overload.update(OverloadOptions.builder().maxInFlight(1).build());
        holdSlow("/slow", 1);

        RawConnection upload = connect();
        upload.send("POST /upload HTTP/1.1\nHost: a\nContent-Length: 10\nExpect: 100-continue\n\n");
        RawResponse response = upload.readResponse();

        assertThat(response.status()).isEqualTo(503);
        assertThat(uploadsHandled).hasValue(0);
    }

    @Test
    void shedsWhileAnEventLoopLagsAndRecoversWhenItCatchesUp() throws Exception {
        overload.update(OverloadOptions.builder()
                .eventLoopLag(Duration.ofMillis(100))
                .sampleInterval(Duration.ofMillis(10))
                .build());
        RawConnection blocker = connect();
        blocker.send("GET /block HTTP/1.1\nHost: a\n\n");
        assertThat(loopBlocked.await(10, TimeUnit.SECONDS)).isTrue();
        // Connections take the event loops in turn: this one is on the loop that is not blocked.
        RawConnection other = connect();

        await(() -> overload.sheds(Priority.CRITICAL).isPresent());
        assertThat(request(other, "/sheddable").status()).isEqualTo(503);
        RawResponse normal = request(other, "/normal");
        assertThat(normal.status()).isEqualTo(503);
        assertThat(normal.bodyText()).contains("event loops behind");
        assertThat(request(other, "/health").status()).isEqualTo(200);

        releaseLoop.countDown();
        assertThat(blocker.readResponse().status()).isEqualTo(200);
        await(() -> overload.sheds(Priority.SHEDDABLE).isEmpty());
        assertThat(request(other, "/sheddable").status()).isEqualTo(200);
        assertThat(overload.shed(OverloadReason.EVENT_LOOP_LAG)).isEqualTo(2);
    }

    @Test
    void shedsPastATinyDirectMemoryBudgetAndRecoversWhenItGrows() throws Exception {
        assertThat(get("/health").status()).isEqualTo(200);
        overload.update(OverloadOptions.builder()
                .directMemory(1)
                .sampleInterval(Duration.ofMillis(10))
                .build());

        await(() -> overload.sheds(Priority.CRITICAL).isPresent());
        assertThat(overload.sheds(Priority.NORMAL)).contains(OverloadReason.DIRECT_MEMORY);
        assertThat(get("/critical").status()).isEqualTo(503);
        assertThat(get("/health").status()).isEqualTo(200);

        overload.update(
                overload.options().toBuilder().directMemory(Long.MAX_VALUE / 2).build());
        await(() -> overload.sheds(Priority.SHEDDABLE).isEmpty());
        assertThat(get("/sheddable").status()).isEqualTo(200);
    }

    @Test
    void shedsWhenTheHeapAfterCollectionPassesItsShare() throws Exception {
        overload.update(OverloadOptions.builder()
                .heap(0.000_001)
                .sampleInterval(Duration.ofMillis(10))
                .build());
        System.gc();

        await(() -> overload.sheds(Priority.NORMAL).isPresent());
        assertThat(overload.sheds(Priority.NORMAL)).contains(OverloadReason.HEAP);
        assertThat(get("/normal").status()).isEqualTo(503);
        assertThat(overload.shed(OverloadReason.HEAP)).isEqualTo(1);
    }

    @Test
    void neverShedsWhenOff() throws Exception {
        HttpClient client = HttpClient.newHttpClient();
        List<CompletableFuture<java.net.http.HttpResponse<String>>> responses = new ArrayList<>();
        for (int i = 0; i < 200; i++) {
            responses.add(client.sendAsync(
                    HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + server.port() + "/sheddable"))
                            .build(),
                    BodyHandlers.ofString()));
        }
        for (CompletableFuture<java.net.http.HttpResponse<String>> response : responses) {
            assertThat(response.get(30, TimeUnit.SECONDS).statusCode()).isEqualTo(200);
        }
        for (OverloadReason reason : OverloadReason.values()) {
            assertThat(overload.shed(reason)).isZero();
        }
    }

    private void holdSlow(String path, int count) throws InterruptedException {
        for (int i = 0; i < count; i++) {
            connect().send("GET " + path + " HTTP/1.1\nHost: a\n\n");
        }
        assertThat(slowEntered.tryAcquire(count, 10, TimeUnit.SECONDS)).isTrue();
    }

    private void releaseSlow() {
        synchronized (slow) {
            slow.forEach(future -> future.complete(HttpResponse.ofText("done")));
        }
    }

    private CompletableFuture<HttpResponse> slow(
            io.parry.server.RequestContext ctx, io.parry.http.HttpRequest request) {
        CompletableFuture<HttpResponse> response = new CompletableFuture<>();
        synchronized (slow) {
            slow.add(response);
        }
        slowEntered.release();
        return response;
    }

    private CompletableFuture<HttpResponse> upload(
            io.parry.server.RequestContext ctx, io.parry.http.HttpRequest request) {
        uploadsHandled.incrementAndGet();
        return HttpResponse.ofText("read").toStage().toCompletableFuture();
    }

    private CompletableFuture<HttpResponse> blockLoop(
            io.parry.server.RequestContext ctx, io.parry.http.HttpRequest request) throws InterruptedException {
        loopBlocked.countDown();
        releaseLoop.await(10, TimeUnit.SECONDS);
        return CompletableFuture.completedFuture(HttpResponse.ofText("unblocked"));
    }

    private static Handler text(String body) {
        return (ctx, request) -> HttpResponse.ofText(body).toStage();
    }

    private RawResponse get(String path) {
        try (RawConnection connection = RawConnection.open("127.0.0.1", server.port())) {
            return request(connection, path);
        }
    }

    private static RawResponse request(RawConnection connection, String path) {
        connection.send("GET " + path + " HTTP/1.1\nHost: a\n\n");
        return connection.readResponse();
    }

    private RawConnection connect() {
        RawConnection connection = RawConnection.open("127.0.0.1", server.port());
        connections.add(connection);
        return connection;
    }

    /** Waits for a state the sampler publishes on its own schedule, checking every few milliseconds. */
    private static void await(BooleanSupplier condition) throws InterruptedException {
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(10);
        while (!condition.getAsBoolean()) {
            assertThat(System.nanoTime()).as("condition not met in 10 s").isLessThan(deadline);
            Thread.sleep(5);
        }
    }
}
