package io.parry.proxy;

import static io.parry.proxy.ProxyFailuresTest.awaitTrue;
import static org.assertj.core.api.Assertions.assertThat;

import io.github.resilience4j.circuitbreaker.CircuitBreaker;
import io.parry.client.Endpoint;
import io.parry.client.HttpClient;
import io.parry.client.PoolStats;
import io.parry.client.upstream.Upstream;
import io.parry.http.HttpBody;
import io.parry.http.HttpData;
import io.parry.http.HttpHeaders;
import io.parry.http.HttpResponse;
import io.parry.http.HttpStatus;
import io.parry.server.Handler;
import io.parry.testing.RawConnection;
import io.parry.testing.RawResponse;
import io.parry.testing.ServerExtension;
import java.net.http.HttpRequest;
import java.net.http.HttpRequest.BodyPublishers;
import java.net.http.HttpResponse.BodyHandlers;
import java.time.Duration;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.Flow;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * Every way a proxied request can end gives back exactly what it took: its place in the bulkhead, its
 * breaker permission, its count on the endpoint and its upstream connection. Each test runs with a
 * bulkhead of one and, where a permission could leak, a half-open breaker that allows one trial call.
 */
class ProxyReleaseTest {
    private static final HttpData CHUNK = HttpData.wrap(new byte[1024]);
    private static final AtomicInteger flakyCalls = new AtomicInteger();

    @RegisterExtension
    static final ServerExtension upstream = ServerExtension.of((ctx, request) -> {
        switch (request.path()) {
            case "/204":
                return HttpResponse.of(HttpStatus.NO_CONTENT).toStage();
            case "/304":
                return HttpResponse.of(HttpStatus.NOT_MODIFIED)
                        .withHeader("ETag", "\"v1\"")
                        .toStage();
            case "/503":
                return HttpResponse.ofText("busy")
                        .withStatus(HttpStatus.SERVICE_UNAVAILABLE)
                        .toStage();
            case "/flaky":
                // A large body, so the retry drops it while it is still arriving.
                return flakyCalls.getAndIncrement() == 0
                        ? HttpResponse.of(
                                        HttpStatus.SERVICE_UNAVAILABLE,
                                        HttpHeaders.empty(),
                                        HttpBody.of(HttpData.wrap(new byte[4 << 20])))
                                .toStage()
                        : HttpResponse.ofText("recovered").toStage();
            case "/endless":
                return HttpResponse.of(HttpStatus.OK, HttpHeaders.empty(), HttpBody.of(ProxyReleaseTest::oneChunk))
                        .toStage();
            case "/hang":
                return new CompletableFuture<>();
            case "/slow":
                CompletableFuture<HttpResponse> later = new CompletableFuture<>();
                ctx.eventLoop().schedule(() -> later.complete(HttpResponse.ofText("late")), 300, TimeUnit.MILLISECONDS);
                return later;
            default:
                return HttpResponse.ofText("hello").toStage();
        }
    });

    private static final SwappableHandler handler = new SwappableHandler();

    @RegisterExtension
    static final ServerExtension gateway = ServerExtension.of(handler);

    private Upstream endpoints;
    private Endpoint endpoint;
    private HttpClient client;
    private GuardedUpstream group;
    private ProxyObserver observer = ProxyObserver.NONE;

    @AfterEach
    void closeGroup() {
        group.close();
        client.close();
    }

    @Test
    void releasesEverythingAfterAHeadResponse() {
        proxy(ProxyHandler::builder);
        halfOpen();

        try (RawConnection connection = gateway.connect()) {
            connection.send("HEAD /head HTTP/1.1\nHost: h\n\n");
            RawResponse response = connection.readResponseHead();

            assertThat(response.status()).isEqualTo(200);
            assertThat(response.header("content-length")).isEqualTo("5");
            assertEverythingReleased();
        }
        assertThat(group.breakerState(endpoint)).isEqualTo(BreakerState.CLOSED);
    }

    @Test
    void releasesEverythingAfterResponsesThatHaveNoBody() {
        proxy(ProxyHandler::builder);

        try (RawConnection connection = gateway.connect()) {
            connection.send("GET /204 HTTP/1.1\nHost: h\n\n");
            assertThat(connection.readResponse().status()).isEqualTo(204);
            assertEverythingReleased();

            connection.send("GET /304 HTTP/1.1\nHost: h\nIf-None-Match: \"v1\"\n\n");
            RawResponse notModified = connection.readResponse();
            assertThat(notModified.status()).isEqualTo(304);
            assertThat(notModified.header("etag")).isEqualTo("\"v1\"");
            assertEverythingReleased();
        }
    }

    @Test
    void releasesEverythingWhenTheClientLeavesMidBody() {
        proxy(ProxyHandler::builder);
        halfOpen();

        try (RawConnection connection = gateway.connect()) {
            connection.send("GET /endless HTTP/1.1\nHost: h\n\n");
            assertThat(connection.readResponseHead().status()).isEqualTo(200);
            assertThat(group.inFlight()).isEqualTo(1);
        }

        assertEverythingReleased();
    }

    @Test
    void releasesEverythingWhenTheClientLeavesWhileTheUpstreamThinks() {
        proxy(ProxyHandler::builder);
        halfOpen();

        try (RawConnection connection = gateway.connect()) {
            connection.send("GET /slow HTTP/1.1\nHost: h\n\n");
            awaitTrue(() -> endpointInFlight() == 1);
        }

        assertEverythingReleased();
    }

    @Test
    void releasesEverythingWhenTheClientLeavesDuringTheBackoff() {
        RetryPolicy slowRetry = RetryPolicy.builder()
                .backoff(Duration.ofSeconds(2))
                .maxBackoff(Duration.ofSeconds(2))
                .build();
        proxy(upstreamGroup -> ProxyHandler.builder(upstreamGroup).retry(slowRetry));

        try (RawConnection connection = gateway.connect()) {
            connection.send("GET /503 HTTP/1.1\nHost: h\n\n");
            awaitTrue(() -> group.breaker(endpoint).getMetrics().getNumberOfFailedCalls() == 1);
        }

        assertEverythingReleased();
    }

    @Test
    void releasesEverythingWhenTheClientLeavesWhileTheReplayBufferFills() {
        RetryPolicy replaying = RetryPolicy.builder().replayBufferSize(4096).build();
        ProxyHandler proxy =
                proxy(upstreamGroup -> ProxyHandler.builder(upstreamGroup).retry(replaying));
        CountDownLatch handled = new CountDownLatch(1);
        handler.set((ctx, request) -> {
            var answer = proxy.handle(ctx, request);
            handled.countDown();
            return answer;
        });
        halfOpen();

        try (RawConnection connection = gateway.connect()) {
            connection
                    .send("POST /upload HTTP/1.1\nHost: h\nContent-Length: 1000\n\n")
                    .sendExactly("only a part");
            awaitTrue(() -> handled.getCount() == 0);
            // The body is still arriving: its place in the bulkhead is free for others meanwhile.
            assertThat(group.inFlight()).isZero();
        }

        assertEverythingReleased();
    }

    @Test
    void releasesTheConnectionOfA503ItRetries() throws Exception {
        flakyCalls.set(0);
        proxy(ProxyHandler::builder);

        var response = get("/flaky");

        assertThat(response.statusCode()).isEqualTo(200);
        assertThat(response.body()).isEqualTo("recovered");
        assertThat(flakyCalls.get()).isEqualTo(2);
        assertEverythingReleased();
    }

    @Test
    void answers500AndReleasesEverythingWhenAPathTemplateLacksItsParameter() throws Exception {
        proxy(upstreamGroup -> ProxyHandler.builder(upstreamGroup).path(PathRewrite.template("/users/{id}")));
        halfOpen();

        var response = get("/people");

        assertThat(response.statusCode()).isEqualTo(500);
        assertEverythingReleased();
        assertThat(get("/people").statusCode())
                .as("a second request, past a bulkhead of one")
                .isEqualTo(500);
    }

    @Test
    void answers502AndReleasesEverythingWhenTheClientThrowsInsteadOfFailing() throws Exception {
        proxy(ProxyHandler::builder, new ThrowingClient(HttpClient.ofDefault()));
        halfOpen();

        assertThat(get("/throw").statusCode()).isEqualTo(502);
        assertEverythingReleased();
        assertThat(group.breakerState(endpoint)).isEqualTo(BreakerState.OPEN);
    }

    @Test
    void answers502AndReleasesEverythingWhenAClientFilterCompletesWithoutAResponse() throws Exception {
        HttpClient nullFilter = HttpClient.builder()
                .filter((next, to, request) -> request.path().equals("/null")
                        ? CompletableFuture.completedFuture(null)
                        : next.send(to, request))
                .build();
        proxy(ProxyHandler::builder, nullFilter);
        halfOpen();

        assertThat(get("/null").statusCode()).isEqualTo(502);
        assertEverythingReleased();
        assertThat(group.breakerState(endpoint)).isEqualTo(BreakerState.OPEN);
    }

    /** The upstream never answers: only cancelling the call at once gives everything back in time. */
    @Test
    void releasesEverythingWhenAFilterGivesUpOnTheProxyFirst() throws Exception {
        handler.set(givingUpAfter(Duration.ofMillis(50), proxy(ProxyHandler::builder)));
        halfOpen();

        assertThat(get("/hang").statusCode()).isEqualTo(500);
        assertEverythingReleased();
    }

    @Test
    void answers500AndReleasesEverythingWhenTheObserverThrows() throws Exception {
        observer = new ProxyObserver() {
            @Override
            public void attemptEnded(String upstream, Endpoint endpoint, int status, Throwable failure, long nanos) {
                throw new IllegalStateException("a faulty observer");
            }
        };
        proxy(ProxyHandler::builder);
        halfOpen();

        assertThat(get("/ok").statusCode()).isEqualTo(500);
        assertEverythingReleased();
    }

    @Test
    void givesTheHalfOpenTrialBackWhenTheClientBreaksItsBody() {
        proxy(ProxyHandler::builder);
        halfOpen();

        try (RawConnection connection = gateway.connect()) {
            connection.send("POST /upload HTTP/1.1\nHost: h\nTransfer-Encoding: chunked\n\n5\nhello\nzz\n");
            assertThat(connection.readResponse().status()).isEqualTo(400);
        }

        assertEverythingReleased();
        assertThat(group.breakerState(endpoint)).isEqualTo(BreakerState.HALF_OPEN);
    }

    @Test
    void answers400AndReleasesEverythingWhenTheObserverThrowsOnAClientEnding() {
        observer = new ProxyObserver() {
            @Override
            public void clientEnded(String upstream, ClientEnding ending) {
                throw new IllegalStateException("a faulty observer");
            }
        };
        proxy(ProxyHandler::builder);
        halfOpen();

        try (RawConnection connection = gateway.connect()) {
            connection.send("POST /upload HTTP/1.1\nHost: h\nTransfer-Encoding: chunked\n\n5\nhello\nzz\n");
            assertThat(connection.readResponse().status()).isEqualTo(400);
        }

        assertEverythingReleased();
    }

    @Test
    void releasesEverythingWhenAFilterGivesUpOnABufferedRequestFirst() throws Exception {
        RetryPolicy replaying = RetryPolicy.builder().replayBufferSize(4096).build();
        handler.set(givingUpAfter(Duration.ofMillis(50), proxy(upstreamGroup -> ProxyHandler.builder(upstreamGroup)
                .retry(replaying))));

        var response = gateway.client()
                .send(
                        HttpRequest.newBuilder(gateway.uri("/hang"))
                                .PUT(BodyPublishers.ofString("small"))
                                .build(),
                        BodyHandlers.ofString());

        assertThat(response.statusCode()).isEqualTo(500);
        assertEverythingReleased();
    }

    private interface Configuration {
        ProxyHandler.Builder configure(GuardedUpstream group);
    }

    private ProxyHandler proxy(Configuration configuration) {
        return proxy(configuration, HttpClient.ofDefault());
    }

    private ProxyHandler proxy(Configuration configuration, HttpClient client) {
        this.client = client;
        endpoint = Endpoint.of("127.0.0.1", upstream.port());
        endpoints = Upstream.of("release", endpoint);
        group = GuardedUpstream.builder(endpoints)
                .client(client)
                .maxConcurrent(1)
                .breaker(BreakerOptions.builder().halfOpenCalls(1).build())
                .observer(observer)
                .build();
        ProxyHandler proxy = configuration.configure(group).build();
        handler.set(proxy);
        return proxy;
    }

    /** Puts the endpoint's breaker half open with one trial call, so a permission that is kept shows. */
    private void halfOpen() {
        CircuitBreaker breaker = group.breaker(endpoint);
        breaker.transitionToOpenState();
        breaker.transitionToHalfOpenState();
    }

    private void assertEverythingReleased() {
        awaitTrue(() -> group.inFlight() == 0);
        awaitTrue(() -> endpointInFlight() == 0);
        awaitTrue(() -> pool().active() == 0);
        assertThat(pool().pending()).isZero();
        assertThat(breakerPermissionFree())
                .as("the breaker's trial permission recorded or given back")
                .isTrue();
    }

    private boolean breakerPermissionFree() {
        CircuitBreaker breaker = group.breaker(endpoint);
        if (breaker.getState() != CircuitBreaker.State.HALF_OPEN) {
            return true;
        }
        if (!breaker.tryAcquirePermission()) {
            return false;
        }
        breaker.releasePermission();
        return true;
    }

    private int endpointInFlight() {
        return endpoints.status().get(0).inFlight();
    }

    private PoolStats pool() {
        return client.poolStats(endpoint);
    }

    private static Handler givingUpAfter(Duration timeout, Handler next) {
        return (ctx, request) ->
                next.handle(ctx, request).toCompletableFuture().orTimeout(timeout.toMillis(), TimeUnit.MILLISECONDS);
    }

    private static java.net.http.HttpResponse<String> get(String path) throws Exception {
        return gateway.client().send(HttpRequest.newBuilder(gateway.uri(path)).build(), BodyHandlers.ofString());
    }

    /** A body that sends one chunk and then nothing, until it is cancelled. */
    private static void oneChunk(Flow.Subscriber<? super HttpData> subscriber) {
        subscriber.onSubscribe(new Flow.Subscription() {
            private boolean sent;

            @Override
            public void request(long n) {
                if (!sent) {
                    sent = true;
                    subscriber.onNext(CHUNK);
                }
            }

            @Override
            public void cancel() {}
        });
    }
}
