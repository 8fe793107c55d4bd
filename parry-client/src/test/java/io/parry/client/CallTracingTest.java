package io.parry.client;

import static io.parry.client.Calls.await;
import static io.parry.client.Calls.text;
import static org.assertj.core.api.Assertions.assertThat;

import io.parry.http.HttpHeaders;
import io.parry.http.HttpMethod;
import io.parry.http.HttpRequest;
import io.parry.http.HttpResponse;
import io.parry.http.tracing.TraceContext;
import io.parry.http.tracing.TracePropagation;
import io.parry.server.Handler;
import io.parry.server.RequestContext;
import io.parry.testing.ServerExtension;
import java.net.ServerSocket;
import java.util.HashMap;
import java.util.Map;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

class CallTracingTest {
    private static final String TRACE_ID = "4bf92f3577b34da6a3ce929d0e0e4736";
    private static final String CALLER_SPAN = "00f067aa0ba902b7";
    private static final String TRACEPARENT = "00-" + TRACE_ID + "-" + CALLER_SPAN + "-01";

    /** The header fields of each request the upstream received. */
    private static final BlockingQueue<HttpHeaders> received = new LinkedBlockingQueue<>();

    @RegisterExtension
    static final ServerExtension upstream = ServerExtension.of((ctx, request) -> {
        received.add(request.headers());
        return HttpResponse.ofText("upstream body").toStage();
    });

    /** Calls the upstream for each request and answers with what the handler saw. */
    @RegisterExtension
    static final ServerExtension front = ServerExtension.of(CallTracingTest::front);

    private static HttpClient client;
    private static HttpClient quiet;

    @BeforeAll
    static void startClients() {
        client = HttpClient.builder()
                .options(ClientOptions.builder().eventLoopThreads(1).build())
                .build();
        quiet = HttpClient.builder()
                .options(ClientOptions.builder()
                        .eventLoopThreads(1)
                        .tracing(false)
                        .build())
                .build();
    }

    @AfterAll
    static void closeClients() {
        client.close();
        quiet.close();
    }

    @BeforeEach
    void forgetEarlierRequests() {
        received.clear();
    }

    @Test
    void startsANewTraceForACallMadeOutsideAnyRequest() throws Exception {
        await(client.send(upstreamEndpoint(), HttpRequest.of(HttpMethod.GET, "/plain"))
                .thenCompose(CallTracingTest::read));

        TraceContext call = TracePropagation.ofDefault().extract(next());
        assertThat(call).isNotNull();
        assertThat(call.sampled()).isTrue();
    }

    @Test
    void leavesTheTraceFieldsOfARequestThatHasThemAlone() throws Exception {
        HttpRequest request =
                HttpRequest.of(HttpMethod.GET, "/plain").mapHeaders(h -> h.set("traceparent", TRACEPARENT));

        await(client.send(upstreamEndpoint(), request).thenCompose(CallTracingTest::read));

        assertThat(next().getAll("traceparent")).containsExactly(TRACEPARENT);
    }

    @Test
    void sendsNoTraceFieldsWithTracingOff() throws Exception {
        await(quiet.send(upstreamEndpoint(), HttpRequest.of(HttpMethod.GET, "/plain"))
                .thenCompose(CallTracingTest::read));

        assertThat(TracePropagation.ofDefault().extract(next())).isNull();
    }

    @Test
    void givesACallFromAHandlerAChildOfTheRequestsSpan() throws Exception {
        Map<String, String> seen = get("/call", "X-B3-TraceId: " + TRACE_ID + "\nX-B3-SpanId: " + CALLER_SPAN);

        HttpHeaders upstreamFields = next();
        TraceContext call = TracePropagation.ofDefault().extract(upstreamFields);
        assertThat(call.traceId()).isEqualTo(TRACE_ID);
        assertThat(call.spanId()).isNotIn(CALLER_SPAN, seen.get("span"));
        assertThat(upstreamFields.get("traceparent")).isEqualTo("00-" + TRACE_ID + "-" + call.spanId() + "-01");
        assertThat(upstreamFields.get("X-B3-ParentSpanId"))
                .as("the request came with B3, so the call speaks it too, naming the server's span")
                .isEqualTo(seen.get("span"));
    }

    @Test
    void givesACallFromBlockingWorkAChildOfTheRequestsSpan() throws Exception {
        Map<String, String> seen = get("/blocking", "traceparent: " + TRACEPARENT);

        TraceContext call = TracePropagation.ofDefault().extract(next());
        assertThat(call.traceId()).isEqualTo(TRACE_ID);
        assertThat(call.spanId()).isNotIn(CALLER_SPAN, seen.get("span"));
    }

    @Test
    void completesTheCallAndItsBodySignalsWithTheRequestsContextCurrent() throws Exception {
        Map<String, String> seen = get("/continuation", "traceparent: " + TRACEPARENT);

        assertThat(seen.get("trace")).isEqualTo(TRACE_ID);
        assertThat(seen)
                .containsEntry("afterHead", seen.get("trace") + " " + seen.get("span") + " " + seen.get("request"))
                .containsEntry("afterBody", seen.get("afterHead"));
    }

    @Test
    void completesAFailedCallWithTheRequestsContextCurrent() throws Exception {
        Map<String, String> seen = get("/failure", "traceparent: " + TRACEPARENT);

        assertThat(seen)
                .containsEntry("failure", "UpstreamConnectException")
                .containsEntry("afterFailure", seen.get("trace") + " " + seen.get("span") + " " + seen.get("request"));
    }

    private static CompletionStage<HttpResponse> front(RequestContext ctx, HttpRequest request) throws Exception {
        TraceContext span = ctx.traceContext();
        String ids = "trace=" + span.traceId() + "\nspan=" + span.spanId() + "\nrequest=" + ctx.requestId() + "\n";
        HttpRequest call = HttpRequest.of(HttpMethod.GET, "/called");
        switch (request.path()) {
            case "/call":
                return client.send(upstreamEndpoint(), call)
                        .thenCompose(CallTracingTest::read)
                        .thenApply(text -> HttpResponse.ofText(ids));
            case "/blocking":
                return Handler.blocking((blockingCtx, blockingRequest) -> {
                            text(await(client.send(upstreamEndpoint(), call)));
                            return HttpResponse.ofText(ids);
                        })
                        .handle(ctx, request);
            case "/continuation":
                return client.send(upstreamEndpoint(), call).thenCompose(response -> {
                    String afterHead = current();
                    return response.body()
                            .aggregate(1024)
                            .thenApply(data -> HttpResponse.ofText(
                                    ids + "afterHead=" + afterHead + "\nafterBody=" + current() + "\n"));
                });
            case "/failure":
                return client.send(Endpoint.of("127.0.0.1", closedPort()), call)
                        .handle((response, failure) -> HttpResponse.ofText(ids + "failure="
                                + failure.getClass().getSimpleName() + "\nafterFailure=" + current() + "\n"));
            default:
                throw new IllegalArgumentException(request.path());
        }
    }

    /** The body as text, read without blocking: on an event loop, blocking would wait for itself. */
    private static CompletionStage<String> read(HttpResponse response) {
        return response.body().aggregate(1024).thenApply(data -> data.toStringUtf8());
    }

    /** The ids of the running thread's request context, as the MDC would hold them. */
    private static String current() {
        return RequestContext.current()
                .map(ctx ->
                        ctx.traceContext().traceId() + " " + ctx.traceContext().spanId() + " " + ctx.requestId())
                .orElse("none");
    }

    /** A port nothing listens on: one the system just gave out and took back. */
    private static int closedPort() throws Exception {
        try (ServerSocket socket = new ServerSocket(0)) {
            return socket.getLocalPort();
        }
    }

    private static Endpoint upstreamEndpoint() {
        return Endpoint.of("127.0.0.1", upstream.port());
    }

    private static HttpHeaders next() throws InterruptedException {
        HttpHeaders headers = received.poll(5, TimeUnit.SECONDS);
        assertThat(headers).as("a request reached the upstream").isNotNull();
        return headers;
    }

    /** GETs the path from the front server with extra header lines and reads its {@code key=value} lines. */
    private static Map<String, String> get(String path, String headerLines) throws Exception {
        java.net.http.HttpRequest.Builder request = java.net.http.HttpRequest.newBuilder(front.uri(path));
        for (String line : headerLines.split("\n")) {
            int colon = line.indexOf(':');
            request.header(line.substring(0, colon), line.substring(colon + 1).trim());
        }
        java.net.http.HttpResponse<String> response =
                front.client().send(request.build(), java.net.http.HttpResponse.BodyHandlers.ofString());
        assertThat(response.statusCode()).as(response.body()).isEqualTo(200);
        Map<String, String> seen = new HashMap<>();
        for (String line : response.body().split("\n")) {
            int equals = line.indexOf('=');
            seen.put(line.substring(0, equals), line.substring(equals + 1));
        }
        return seen;
    }
}
