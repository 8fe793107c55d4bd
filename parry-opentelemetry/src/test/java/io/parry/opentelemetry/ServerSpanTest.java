package io.parry.opentelemetry;

import static org.assertj.core.api.Assertions.assertThat;

import io.opentelemetry.api.trace.SpanKind;
import io.opentelemetry.api.trace.StatusCode;
import io.opentelemetry.sdk.trace.data.SpanData;
import io.opentelemetry.semconv.ClientAttributes;
import io.opentelemetry.semconv.ErrorAttributes;
import io.opentelemetry.semconv.HttpAttributes;
import io.opentelemetry.semconv.NetworkAttributes;
import io.opentelemetry.semconv.ServerAttributes;
import io.opentelemetry.semconv.UrlAttributes;
import io.opentelemetry.semconv.UserAgentAttributes;
import io.parry.http.HttpResponse;
import io.parry.server.Handler;
import io.parry.server.Server;
import io.parry.server.accesslog.AccessLog;
import io.parry.server.routing.Router;
import io.parry.testing.RawConnection;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse.BodyHandlers;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.slf4j.MDC;

class ServerSpanTest {
    private static final String TRACE_ID = "4bf92f3577b34da6a3ce929d0e0e4736";
    private static final String CALLER_SPAN = "00f067aa0ba902b7";
    private static final String TRACEPARENT = "00-" + TRACE_ID + "-" + CALLER_SPAN + "-01";

    private static final RecordedSpans spans = new RecordedSpans();
    private static final BlockingQueue<String> accessLines = new LinkedBlockingQueue<>();
    /** What each handler saw: its MDC's trace and span ids and its context's. */
    private static final BlockingQueue<String> handlerIds = new LinkedBlockingQueue<>();

    private static final HttpClient http = HttpClient.newHttpClient();

    private static AccessLog accessLog;
    private static Server server;

    @BeforeAll
    static void startTheServer() {
        Handler todo = (ctx, request) -> {
            handlerIds.add(MDC.get("traceId") + " " + MDC.get("spanId") + " "
                    + ctx.traceContext().traceId() + " " + ctx.traceContext().spanId());
            return HttpResponse.ofText("todo").toStage();
        };
        Router router = Router.builder()
                .get("/todos/{id}", todo)
                .get("/fails", (ctx, request) -> {
                    throw new IllegalStateException("fails on purpose");
                })
                .build();
        accessLog = AccessLog.builder().sink(accessLines::add).build();
        server = Server.builder()
                .host("127.0.0.1")
                .port(0)
                .handler(router)
                .listener(accessLog)
                .tracer(ParryOpenTelemetry.of(spans.openTelemetry()).requestTracer())
                .build()
                .start();
    }

    @AfterAll
    static void stopTheServer() {
        server.stop(Duration.ofSeconds(5));
        accessLog.close();
        spans.close();
    }

    @BeforeEach
    void forgetEarlierRequests() {
        spans.clear();
        accessLines.clear();
        handlerIds.clear();
    }

    @Test
    void recordsAServerSpanWithTheHttpAttributesAsAChildOfTheCallersSpan() throws Exception {
        assertThat(get("/todos/42?full=yes", TRACEPARENT)).isEqualTo(200);

        SpanData span = single(spans.await(1));
        assertThat(span.getKind()).isEqualTo(SpanKind.SERVER);
        assertThat(span.getName()).isEqualTo("GET /todos/{id}");
        assertThat(span.getTraceId()).isEqualTo(TRACE_ID);
        assertThat(span.getParentSpanId()).isEqualTo(CALLER_SPAN);
        assertThat(span.getParentSpanContext().isRemote()).isTrue();
        assertThat(span.getStatus().getStatusCode()).isEqualTo(StatusCode.UNSET);
        var attributes = span.getAttributes();
        assertThat(attributes.get(HttpAttributes.HTTP_REQUEST_METHOD)).isEqualTo("GET");
        assertThat(attributes.get(UrlAttributes.URL_PATH)).isEqualTo("/todos/42");
        assertThat(attributes.get(UrlAttributes.URL_QUERY)).isEqualTo("full=yes");
        assertThat(attributes.get(UrlAttributes.URL_SCHEME)).isEqualTo("http");
        assertThat(attributes.get(HttpAttributes.HTTP_ROUTE)).isEqualTo("/todos/{id}");
        assertThat(attributes.get(HttpAttributes.HTTP_RESPONSE_STATUS_CODE)).isEqualTo(200L);
        assertThat(attributes.get(ServerAttributes.SERVER_ADDRESS)).isEqualTo("127.0.0.1");
        assertThat(attributes.get(ServerAttributes.SERVER_PORT)).isEqualTo((long) server.port());
        assertThat(attributes.get(ClientAttributes.CLIENT_ADDRESS)).isEqualTo("127.0.0.1");
        assertThat(attributes.get(NetworkAttributes.NETWORK_PROTOCOL_VERSION)).isEqualTo("1.1");
        assertThat(attributes.get(UserAgentAttributes.USER_AGENT_ORIGINAL)).startsWith("Java-http-client");
        assertThat(attributes.get(ErrorAttributes.ERROR_TYPE)).isNull();
    }

    @Test
    void givesTheMdcTheContextAndTheAccessLogTheSpansIds() throws Exception {
        assertThat(get("/todos/7", TRACEPARENT)).isEqualTo(200);

        SpanData span = single(spans.await(1));
        String ids = span.getTraceId() + " " + span.getSpanId();
        assertThat(handlerIds.poll(5, TimeUnit.SECONDS)).isEqualTo(ids + " " + ids);
        assertThat(accessLine("/todos/7"))
                .contains("\"traceId\":\"" + span.getTraceId() + "\",\"spanId\":\"" + span.getSpanId() + "\"");
    }

    @Test
    void startsARootSpanWhenNoTraceOrAMalformedOneArrives() throws Exception {
        assertThat(get("/todos/1", null)).isEqualTo(200);
        assertThat(get("/todos/2", "00-" + TRACE_ID + "-" + CALLER_SPAN + "-1")).isEqualTo(200);

        List<SpanData> roots = spans.await(2);
        assertThat(roots).allSatisfy(span -> {
            assertThat(span.getParentSpanContext().isValid()).isFalse();
            assertThat(span.getTraceId()).isNotEqualTo(TRACE_ID);
            assertThat(span.getSpanContext().isSampled()).isTrue();
        });
        assertThat(roots.get(0).getTraceId()).isNotEqualTo(roots.get(1).getTraceId());
    }

    @Test
    void marksA5xxAsAnErrorButNotA4xx() throws Exception {
        assertThat(get("/fails", TRACEPARENT)).isEqualTo(500);
        SpanData failed = single(spans.await(1));
        spans.clear();
        assertThat(get("/nothing-here", TRACEPARENT)).isEqualTo(404);
        SpanData missing = single(spans.await(1));

        assertThat(failed.getStatus().getStatusCode()).isEqualTo(StatusCode.ERROR);
        assertThat(failed.getAttributes().get(ErrorAttributes.ERROR_TYPE)).isEqualTo("500");
        assertThat(failed.getName()).isEqualTo("GET /fails");
        assertThat(missing.getStatus().getStatusCode()).isEqualTo(StatusCode.UNSET);
        assertThat(missing.getAttributes().get(ErrorAttributes.ERROR_TYPE)).isNull();
        assertThat(missing.getAttributes().get(HttpAttributes.HTTP_ROUTE)).isNull();
        assertThat(missing.getName()).isEqualTo("GET");
    }

    @Test
    void tracesARequestRefusedBeforeAnyHandlerWithWhatItsLogKnows() throws Exception {
        try (RawConnection connection = RawConnection.open("127.0.0.1", server.port())) {
            connection.send("GET /no-host HTTP/1.1\n\n");
            assertThat(connection.readResponse().status()).isEqualTo(400);
        }

        SpanData span = single(spans.await(1));
        assertThat(span.getAttributes().get(HttpAttributes.HTTP_RESPONSE_STATUS_CODE))
                .isEqualTo(400L);
        assertThat(span.getAttributes().get(HttpAttributes.HTTP_REQUEST_METHOD)).isEqualTo("GET");
        assertThat(span.getAttributes().get(UrlAttributes.URL_PATH)).isEqualTo("/no-host");
        assertThat(accessLine("/no-host")).contains("\"spanId\":\"" + span.getSpanId() + "\"");
    }

    /** The access log line of the request for this path; lines of earlier tests may still be arriving. */
    private static String accessLine(String path) throws InterruptedException {
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(5);
        String line;
        do {
            line = accessLines.poll(Math.max(0, deadline - System.nanoTime()), TimeUnit.NANOSECONDS);
            assertThat(line).as("the access log line of %s", path).isNotNull();
        } while (!line.contains("\"path\":\"" + path + "\""));
        return line;
    }

    private static SpanData single(List<SpanData> ended) {
        assertThat(ended).hasSize(1);
        return ended.get(0);
    }

    private static int get(String path, String traceparent) throws Exception {
        HttpRequest.Builder request = HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + server.port() + path));
        if (traceparent != null) {
            request.header("traceparent", traceparent);
        }
        return http.send(request.build(), BodyHandlers.discarding()).statusCode();
    }
}
