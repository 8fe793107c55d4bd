package io.parry.testing;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.parry.http.HttpBody;
import io.parry.http.HttpData;
import io.parry.http.HttpHeaders;
import io.parry.http.HttpMethod;
import io.parry.http.HttpRequest;
import io.parry.http.HttpResponse;
import io.parry.http.HttpStatus;
import io.parry.http.HttpStatusException;
import io.parry.http.MediaType;
import io.parry.server.Handler;
import io.parry.server.RequestContext;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.Flow;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

class HandlerTesterTest {
    private final AtomicReference<RequestContext> seenContext = new AtomicReference<>();
    private final AtomicReference<HttpRequest> seenRequest = new AtomicReference<>();
    private final AtomicReference<String> seenThread = new AtomicReference<>();

    private final Handler recording = (ctx, request) -> {
        seenContext.set(ctx);
        seenRequest.set(request);
        seenThread.set(Thread.currentThread().getName());
        return HttpResponse.builder(HttpStatus.CREATED)
                .header("location", "/todos/42")
                .body(MediaType.JSON, HttpData.ofUtf8("{\"id\":42}"))
                .build()
                .toStage();
    };

    @RegisterExtension
    final HandlerTester tester = HandlerTester.of(recording);

    @Test
    void answersWithTheHandlersStatusHeadersAndBody() {
        TestResponse response = tester.send(HttpRequest.of(HttpMethod.POST, "/todos"));

        assertThat(response.status()).isEqualTo(201);
        assertThat(response.httpStatus()).isEqualTo(HttpStatus.CREATED);
        assertThat(response.header("Location")).isEqualTo("/todos/42");
        assertThat(response.headers("content-type")).containsExactly("application/json");
        assertThat(response.bodyText()).isEqualTo("{\"id\":42}");
        assertThat(response.trailers().isEmpty()).isTrue();
        assertThat(response.failure()).isEmpty();
    }

    @Test
    void runsTheHandlerOnTheTestersEventLoop() {
        tester.get("/");

        assertThat(seenThread.get()).startsWith("parry-test-loop-");
    }

    @Test
    void givesEachRequestAContextWithItsOwnIdLoopbackAddressesAndHttp11() {
        TestResponse first = tester.get("/");
        RequestContext ctx = seenContext.get();
        TestResponse second = tester.get("/");

        assertThat(first.requestId()).isEqualTo("test-1");
        assertThat(second.requestId()).isEqualTo("test-2");
        assertThat(ctx.requestId()).isEqualTo("test-1");
        assertThat(ctx.remoteAddress().getAddress().getHostAddress()).isEqualTo("127.0.0.1");
        assertThat(ctx.localAddress().getAddress().getHostAddress()).isEqualTo("127.0.0.1");
        assertThat(ctx.localAddress().getPort()).isEqualTo(8080);
        assertThat(ctx.protocol()).isEqualTo("HTTP/1.1");
        assertThat(ctx.pathParams()).isEmpty();
    }

    @Test
    void givesEachRequestTheTraceItCarriesWithItsOwnSpan() {
        tester.send(HttpRequest.builder(HttpMethod.GET, "/")
                .header("traceparent", "00-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-01")
                .build());
        RequestContext traced = seenContext.get();
        tester.get("/");
        RequestContext untraced = seenContext.get();

        assertThat(traced.traceContext().traceId()).isEqualTo("4bf92f3577b34da6a3ce929d0e0e4736");
        assertThat(traced.traceContext().parentSpanId()).isEqualTo("00f067aa0ba902b7");
        assertThat(traced.traceContext()).isSameAs(traced.traceContext());
        assertThat(untraced.traceContext().parentSpanId()).isNull();
        assertThat(untraced.traceContext().traceId()).isNotEqualTo("4bf92f3577b34da6a3ce929d0e0e4736");
    }

    @Test
    void addsAHostFieldOnlyWhenTheRequestHasNone() {
        tester.get("/");
        assertThat(seenRequest.get().authority()).isEqualTo("localhost");

        tester.send(HttpRequest.builder(HttpMethod.GET, "/")
                .header("host", "api.example")
                .build());
        assertThat(seenRequest.get().headers().getAll("host")).containsExactly("api.example");
    }

    @Test
    void leavesTheContextNotCurrentAsOnlyTheServerCanMakeItSo() {
        AtomicReference<Boolean> current = new AtomicReference<>();
        try (HandlerTester own = HandlerTester.of((ctx, request) -> {
            current.set(RequestContext.current().isPresent());
            return HttpResponse.ofText("ok").toStage();
        })) {
            own.get("/");
        }

        assertThat(current.get()).isFalse();
    }

    @Test
    void answersAStatusExceptionWithItsStatusAndDetailAsTheServerDoes() {
        HttpStatusException thrown = new HttpStatusException(HttpStatus.NOT_FOUND, "No todo 42.");
        TestResponse response = run((ctx, request) -> {
            throw thrown;
        });

        assertThat(response.status()).isEqualTo(404);
        assertThat(response.header("content-type")).isEqualTo("application/problem+json");
        assertThat(response.bodyText())
                .isEqualTo("{\"type\":\"about:blank\",\"title\":\"Not Found\",\"status\":404,"
                        + "\"detail\":\"No todo 42.\",\"instance\":\"/todos/42\",\"requestId\":\"test-1\"}");
        assertThat(response.failure()).containsSame(thrown);
    }

    @Test
    void answersAnyOtherExceptionWith500RevealingNothing() {
        TestResponse response = run((ctx, request) -> {
            throw new IllegalStateException("secret");
        });

        assertThat(response.status()).isEqualTo(500);
        assertThat(response.bodyText()).doesNotContain("secret").doesNotContain("detail");
        assertThat(response.failure()).get().hasFieldOrPropertyWithValue("message", "secret");
    }

    @Test
    void answersAFailedStageLikeAThrow() {
        TestResponse response = run((ctx, request) -> CompletableFuture.supplyAsync(() -> {
            throw new HttpStatusException(HttpStatus.CONFLICT, "changed");
        }));

        assertThat(response.status()).isEqualTo(409);
        assertThat(response.failure()).get().isInstanceOf(HttpStatusException.class);
    }

    @Test
    void answersANullStageOrResponseWith500() {
        assertThat(run((ctx, request) -> null).status()).isEqualTo(500);
        assertThat(run((ctx, request) -> CompletableFuture.completedFuture(null))
                        .status())
                .isEqualTo(500);
    }

    @Test
    void answersACancelledStageWith503() {
        CompletableFuture<HttpResponse> cancelled = new CompletableFuture<>();
        cancelled.cancel(false);

        assertThat(run((ctx, request) -> cancelled).status()).isEqualTo(503);
    }

    @Test
    void runsBlockingWorkOnAWorkerThread() {
        TestResponse response = run(Handler.blocking(
                (ctx, request) -> HttpResponse.ofText(Thread.currentThread().getName())));

        assertThat(response.bodyText()).startsWith("parry-test-worker-");
    }

    @Test
    void runsTasksScheduledOnTheEventLoop() {
        TestResponse response = run((ctx, request) -> {
            CompletableFuture<HttpResponse> later = new CompletableFuture<>();
            ctx.eventLoop()
                    .schedule(
                            () -> later.complete(
                                    HttpResponse.ofText(Thread.currentThread().getName())),
                            1,
                            TimeUnit.MILLISECONDS);
            return later;
        });

        assertThat(response.bodyText()).startsWith("parry-test-loop-");
    }

    @Test
    void refusesToLetTheHandlerShutDownTheEventLoop() {
        TestResponse response = run((ctx, request) -> {
            ctx.eventLoop().shutdown();
            return HttpResponse.ofText("still running").toStage();
        });

        assertThat(response.status()).isEqualTo(500);
        assertThat(response.failure()).get().isInstanceOf(UnsupportedOperationException.class);
        assertThat(tester.get("/").status()).isEqualTo(201);
    }

    @Test
    void readsAStreamedBodyAndItsTrailers() {
        TestResponse response = run((ctx, request) -> {
            CompletableFuture<HttpHeaders> trailers = new CompletableFuture<>();
            Flow.Publisher<HttpData> chunks = subscriber -> subscriber.onSubscribe(new Flow.Subscription() {
                private final List<String> left = new ArrayList<>(List.of("one ", "two"));
                private boolean done;

                @Override
                public void request(long n) {
                    // The chunks are published later, on the event loop, as a streaming handler would.
                    ctx.eventLoop().execute(() -> {
                        for (long i = 0; i < n && !left.isEmpty(); i++) {
                            subscriber.onNext(HttpData.ofUtf8(left.remove(0)));
                        }
                        if (left.isEmpty() && !done) {
                            done = true;
                            trailers.complete(HttpHeaders.of("checksum", "abc"));
                            subscriber.onComplete();
                        }
                    });
                }

                @Override
                public void cancel() {}
            });
            return HttpResponse.of(HttpStatus.OK, HttpHeaders.empty(), HttpBody.of(chunks, trailers))
                    .toStage();
        });

        assertThat(response.bodyText()).isEqualTo("one two");
        assertThat(response.trailers().get("checksum")).isEqualTo("abc");
    }

    @Test
    void failsTheTestWhenTheBodyFailsAfterTheHeaders() {
        Flow.Publisher<HttpData> failing = subscriber -> subscriber.onSubscribe(new Flow.Subscription() {
            @Override
            public void request(long n) {
                subscriber.onError(new IllegalStateException("disk gone"));
            }

            @Override
            public void cancel() {}
        });

        assertThatThrownBy(() ->
                        run((ctx, request) -> HttpResponse.of(HttpStatus.OK, HttpHeaders.empty(), HttpBody.of(failing))
                                .toStage()))
                .isInstanceOf(AssertionError.class)
                .hasMessageContaining("failed after its headers")
                .hasRootCauseMessage("disk gone");
    }

    @Test
    void failsTheTestWhenTheHandlerDoesNotAnswerInTime() {
        try (HandlerTester slow =
                new HandlerTester((ctx, request) -> new CompletableFuture<>(), Duration.ofMillis(50))) {
            assertThatThrownBy(() -> slow.get("/never"))
                    .isInstanceOf(AssertionError.class)
                    .hasMessage("the handler did not answer for GET /never within PT0.05S");
        }
    }

    @Test
    void refusesRequestsOnceClosed() {
        HandlerTester closed = HandlerTester.of(recording);
        closed.close();

        assertThatThrownBy(() -> closed.get("/"))
                .isInstanceOf(IllegalStateException.class)
                .hasMessage("the HandlerTester is closed");
    }

    @Test
    void answersRequestsFromSeveralThreads() throws Exception {
        List<CompletableFuture<TestResponse>> responses = List.of(
                CompletableFuture.supplyAsync(() -> tester.get("/a")),
                CompletableFuture.supplyAsync(() -> tester.get("/b")),
                CompletableFuture.supplyAsync(() -> tester.get("/c")));

        for (CompletableFuture<TestResponse> response : responses) {
            assertThat(response.get(10, TimeUnit.SECONDS).status()).isEqualTo(201);
        }
    }

    private static TestResponse run(Handler handler) {
        try (HandlerTester own = HandlerTester.of(handler)) {
            return own.send(HttpRequest.of(HttpMethod.GET, "/todos/42"));
        }
    }
}
