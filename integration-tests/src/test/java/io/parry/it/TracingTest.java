package io.parry.it;

import static org.assertj.core.api.Assertions.assertThat;

import io.parry.http.HttpResponse;
import io.parry.http.tracing.TraceContext;
import io.parry.server.Handler;
import io.parry.server.RequestContext;
import io.parry.server.routing.RouteSpec;
import io.parry.server.routing.Router;
import io.parry.testing.RawConnection;
import io.parry.testing.RawResponse;
import io.parry.testing.ServerExtension;
import java.util.HashMap;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.slf4j.MDC;

class TracingTest {
    private static final String TRACE_ID = "4bf92f3577b34da6a3ce929d0e0e4736";
    private static final String CALLER_SPAN = "00f067aa0ba902b7";
    private static final String TRACEPARENT = "00-" + TRACE_ID + "-" + CALLER_SPAN + "-01";

    private static final ExecutorService named =
            Executors.newSingleThreadExecutor(task -> new Thread(task, "tracing-test-named"));
    private static final CompletableFuture<Void> bodyAwaited = new CompletableFuture<>();
    private static final CompletableFuture<String> goneHandlerTrace = new CompletableFuture<>();
    private static final CompletableFuture<String> goneMdcTrace = new CompletableFuture<>();

    private static final Handler DESCRIBE = (ctx, request) -> describe(ctx).toStage();

    private static final Router ROUTER = Router.builder()
            .executor("named", named)
            .get("/trace", DESCRIBE)
            .get("/blocking/{id}", DESCRIBE, RouteSpec::blocking)
            .get("/named", DESCRIBE, route -> route.executor("named"))
            .get("/timer", (ctx, request) -> {
                CompletableFuture<HttpResponse> later = new CompletableFuture<>();
                ctx.eventLoop().schedule(() -> later.complete(describe(ctx)), 1, TimeUnit.MILLISECONDS);
                return later;
            })
            .post("/body", (ctx, request) -> {
                bodyAwaited.complete(null);
                return request.body().aggregate(1024).thenApply(data -> describe(ctx));
            })
            .get(
                    "/fails",
                    (ctx, request) -> {
                        throw new IllegalStateException("fails on purpose");
                    },
                    route -> route.blocking().errorHandler((ctx, request, failure) -> describe(ctx)))
            .get("/gone", (ctx, request) -> {
                ctx.clientGone().thenRun(() -> goneMdcTrace.complete(MDC.get("traceId")));
                goneHandlerTrace.complete(ctx.traceContext().traceId());
                return new CompletableFuture<>();
            })
            .build();

    @RegisterExtension
    static final ServerExtension server = ServerExtension.of(ROUTER);

    @RegisterExtension
    static final ServerExtension untraced = ServerExtension.of(DESCRIBE, options -> options.tracing(false));

    @BeforeAll
    static void startTheNamedThreadOutsideAnyRequest() throws Exception {
        named.submit(() -> {}).get(5, TimeUnit.SECONDS);
    }

    @AfterAll
    static void stopTheNamedExecutor() {
        named.shutdownNow();
    }

    @Test
    void keepsAnIncomingTraceWithANewSpanForTheServer() {
        Map<String, String> seen = get(server, "/trace", "traceparent: " + TRACEPARENT);

        assertThat(seen.get("trace")).isEqualTo(TRACE_ID);
        assertThat(seen.get("parent")).isEqualTo(CALLER_SPAN);
        assertThat(seen.get("span")).matches("[0-9a-f]{16}").isNotEqualTo(CALLER_SPAN);
        assertThat(seen.get("sampled")).isEqualTo("true");
        assertThat(seen.get("sameOnEveryCall")).isEqualTo("true");
        assertThat(seen).containsEntry("mdcTrace", TRACE_ID).containsEntry("mdcSpan", seen.get("span"));
        assertThat(seen.get("mdcRequest")).isEqualTo(seen.get("request"));
    }

    @Test
    void startsANewTraceWhenNoneArrives() {
        Map<String, String> first = get(server, "/trace", "accept: */*");
        Map<String, String> second = get(server, "/trace", "accept: */*");

        assertThat(first.get("trace")).matches("[0-9a-f]{32}").isNotEqualTo(second.get("trace"));
        assertThat(first.get("parent")).isEqualTo("null");
        assertThat(first.get("sampled")).isEqualTo("true");
        assertThat(first.get("mdcTrace")).isEqualTo(first.get("trace"));
    }

    @Test
    void startsANewTraceWhenTheTraceparentIsMalformed() {
        String uppercase = "00-" + TRACE_ID.toUpperCase() + "-" + CALLER_SPAN + "-01";

        Map<String, String> seen = get(server, "/trace", "traceparent: " + uppercase);

        assertThat(seen.get("status")).isEqualTo("200");
        assertThat(seen.get("trace")).matches("[0-9a-f]{32}").isNotEqualToIgnoringCase(TRACE_ID);
        assertThat(seen.get("parent")).isEqualTo("null");
    }

    @Test
    void honoursTheCallersSamplingDecisionInB3() {
        Map<String, String> seen =
                get(server, "/trace", "X-B3-TraceId: 48485a3953bb6124\nX-B3-SpanId: a2fb4a1d1a96d312\nX-B3-Sampled: 0");

        assertThat(seen.get("trace")).isEqualTo("000000000000000048485a3953bb6124");
        assertThat(seen.get("parent")).isEqualTo("a2fb4a1d1a96d312");
        assertThat(seen.get("sampled")).isEqualTo("false");
    }

    @Test
    void putsTheIdsInTheMdcOfABlockingHandlerWithPathParameters() {
        Map<String, String> seen = get(server, "/blocking/42", "traceparent: " + TRACEPARENT);

        assertThat(seen.get("thread")).doesNotStartWith("parry-loop-");
        assertThat(seen.get("trace")).isEqualTo(TRACE_ID);
        assertThat(seen.get("sameOnEveryCall")).isEqualTo("true");
        assertThat(seen).containsEntry("mdcTrace", TRACE_ID).containsEntry("mdcSpan", seen.get("span"));
        assertThat(seen.get("mdcRequest")).isEqualTo(seen.get("request"));
    }

    @Test
    void putsTheIdsInTheMdcOfAnEventLoopTask() {
        Map<String, String> seen = get(server, "/timer", "traceparent: " + TRACEPARENT);

        assertThat(seen.get("thread")).startsWith("parry-loop-");
        assertThat(seen).containsEntry("mdcTrace", TRACE_ID).containsEntry("mdcSpan", seen.get("span"));
    }

    @Test
    void putsTheIdsInTheMdcOfAnErrorHandlerAfterABlockingFailure() {
        Map<String, String> seen = get(server, "/fails", "traceparent: " + TRACEPARENT);

        assertThat(seen).containsEntry("mdcTrace", TRACE_ID).containsEntry("mdcSpan", seen.get("span"));
    }

    @Test
    void putsTheIdsInTheMdcOfAContinuationOnTheRequestBody() throws Exception {
        try (RawConnection connection = server.connect()) {
            connection.send("POST /body HTTP/1.1\nHost: a\ntraceparent: " + TRACEPARENT + "\nContent-Length: 5\n\n");
            bodyAwaited.get(5, TimeUnit.SECONDS);
            connection.sendExactly("hello");

            Map<String, String> seen = parse(connection.readResponse());

            assertThat(seen).containsEntry("mdcTrace", TRACE_ID).containsEntry("mdcSpan", seen.get("span"));
        }
    }

    @Test
    void putsTheIdsInTheMdcWhenTheClientLeaves() throws Exception {
        try (RawConnection connection = server.connect()) {
            connection.send("GET /gone HTTP/1.1\nHost: a\n\n");
            goneHandlerTrace.get(5, TimeUnit.SECONDS);
        }

        assertThat(goneMdcTrace.get(5, TimeUnit.SECONDS)).isEqualTo(goneHandlerTrace.get());
    }

    @Test
    void removesTheIdsFromTheThreadAfterTheRequest() throws Exception {
        Map<String, String> seen = get(server, "/named", "traceparent: " + TRACEPARENT);

        Map<String, String> after = named.submit(() -> {
                    Map<String, String> mdc = new HashMap<>();
                    mdc.put("traceId", MDC.get("traceId"));
                    mdc.put("spanId", MDC.get("spanId"));
                    mdc.put("requestId", MDC.get("requestId"));
                    mdc.put("current", String.valueOf(RequestContext.current().isPresent()));
                    return mdc;
                })
                .get(5, TimeUnit.SECONDS);

        assertThat(seen.get("thread")).isEqualTo("tracing-test-named");
        assertThat(seen).containsEntry("mdcTrace", TRACE_ID);
        assertThat(after)
                .containsEntry("traceId", null)
                .containsEntry("spanId", null)
                .containsEntry("requestId", null)
                .containsEntry("current", "false");
    }

    @Test
    void leavesTheMdcAloneWithTracingOffButStillAnswersTheTrace() {
        Map<String, String> seen = get(untraced, "/", "traceparent: " + TRACEPARENT);

        assertThat(seen.get("mdcTrace")).isEqualTo("null");
        assertThat(seen.get("mdcRequest")).isEqualTo("null");
        assertThat(seen.get("trace")).isEqualTo(TRACE_ID);
        assertThat(seen.get("parent")).isEqualTo(CALLER_SPAN);
        assertThat(seen.get("sameOnEveryCall")).isEqualTo("true");
    }

    /** What a handler sees, as {@code key=value} words; an absent value reads {@code null}. */
    private static HttpResponse describe(RequestContext ctx) {
        TraceContext trace = ctx.traceContext();
        return HttpResponse.ofText(String.join(
                " ",
                "trace=" + trace.traceId(),
                "span=" + trace.spanId(),
                "parent=" + trace.parentSpanId(),
                "sampled=" + trace.sampled(),
                "sameOnEveryCall=" + (ctx.traceContext() == trace),
                "request=" + ctx.requestId(),
                "mdcTrace=" + MDC.get("traceId"),
                "mdcSpan=" + MDC.get("spanId"),
                "mdcRequest=" + MDC.get("requestId"),
                "thread=" + Thread.currentThread().getName()));
    }

    private static Map<String, String> get(ServerExtension target, String path, String headers) {
        try (RawConnection connection = target.connect()) {
            connection.send("GET " + path + " HTTP/1.1\nHost: a\n" + headers + "\n\n");
            return parse(connection.readResponse());
        }
    }

    private static Map<String, String> parse(RawResponse response) {
        Map<String, String> seen = new HashMap<>();
        seen.put("status", String.valueOf(response.status()));
        for (String word : response.bodyText().split(" ")) {
            int equals = word.indexOf('=');
            seen.put(word.substring(0, equals), word.substring(equals + 1));
        }
        return seen;
    }
}
