package io.parry.opentelemetry;

import static org.assertj.core.api.Assertions.assertThat;

import io.opentelemetry.api.trace.SpanKind;
import io.opentelemetry.api.trace.StatusCode;
import io.opentelemetry.sdk.trace.data.SpanData;
import io.opentelemetry.semconv.ErrorAttributes;
import io.opentelemetry.semconv.HttpAttributes;
import io.opentelemetry.semconv.ServerAttributes;
import io.opentelemetry.semconv.UrlAttributes;
import io.parry.client.Endpoint;
import io.parry.client.HttpClient;
import io.parry.client.UpstreamConnectException;
import io.parry.http.HttpHeaders;
import io.parry.http.HttpMethod;
import io.parry.http.HttpRequest;
import io.parry.http.HttpResponse;
import io.parry.server.Server;
import java.net.ServerSocket;
import java.net.URI;
import java.net.http.HttpResponse.BodyHandlers;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.slf4j.MDC;

class ClientSpanTest {
    private static final String TRACE_ID = "4bf92f3577b34da6a3ce929d0e0e4736";
    private static final String CALLER_SPAN = "00f067aa0ba902b7";
    private static final String TRACEPARENT = "00-" + TRACE_ID + "-" + CALLER_SPAN + "-01";

    private static final RecordedSpans spans = new RecordedSpans();
    /** The {@code traceparent} of each request the upstream received; "none" for a request without. */
    private static final BlockingQueue<String> received = new LinkedBlockingQueue<>();
    /** The MDC span id the front server's handler saw when its call completed. */
    private static final BlockingQueue<String> continuationSpans = new LinkedBlockingQueue<>();

    private static HttpClient client;
    private static Server upstream;
    private static Server front;

    @BeforeAll
    static void startTheServers() {
        ParryOpenTelemetry otel = ParryOpenTelemetry.of(spans.openTelemetry());
        client = HttpClient.builder().filter(otel.clientFilter()).build();
        upstream = Server.builder()
                .host("127.0.0.1")
                .port(0)
                .handler((ctx, request) -> {
                    String traceparent = request.headers().get("traceparent");
                    received.add(traceparent == null ? "none" : traceparent);
                    return HttpResponse.ofText("upstream").toStage();
                })
                .build()
                .start();
        front = Server.builder()
                .host("127.0.0.1")
                .port(0)
                .tracer(otel.requestTracer())
                .handler((ctx, request) -> client.send(upstream(), HttpRequest.of(HttpMethod.GET, "/called?x=1"))
                        .thenCompose(ClientSpanTest::read)
                        .thenApply(text -> {
                            continuationSpans.add(String.valueOf(MDC.get("spanId")));
                            return HttpResponse.ofText(text);
                        }))
                .build()
                .start();
    }

    @AfterAll
    static void stopTheServers() {
        front.stop(Duration.ofSeconds(5));
        upstream.stop(Duration.ofSeconds(5));
        client.close();
        spans.close();
    }

    @BeforeEach
    void forgetEarlierCalls() {
        spans.clear();
        received.clear();
        continuationSpans.clear();
    }

    @Test
    void makesACallFromAHandlerAClientSpanUnderTheServerSpanAndSendsItsIds() throws Exception {
        var response = java.net.http.HttpClient.newHttpClient()
                .send(
                        java.net.http.HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + front.port() + "/"))
                                .header("traceparent", TRACEPARENT)
                                .build(),
                        BodyHandlers.ofString());
        assertThat(response.body()).isEqualTo("upstream");

        List<SpanData> ended = spans.await(2);
        SpanData server = ofKind(ended, SpanKind.SERVER);
        SpanData call = ofKind(ended, SpanKind.CLIENT);
        assertThat(call.getTraceId()).isEqualTo(TRACE_ID);
        assertThat(call.getParentSpanId()).isEqualTo(server.getSpanId());
        assertThat(call.getParentSpanContext().isRemote()).isFalse();
        assertThat(server.getParentSpanId()).isEqualTo(CALLER_SPAN);
        assertThat(received.poll(5, TimeUnit.SECONDS)).isEqualTo("00-" + TRACE_ID + "-" + call.getSpanId() + "-01");
        assertThat(continuationSpans.poll(5, TimeUnit.SECONDS))
                .as("the handler's stage, completed by the client, sees the server span in the MDC")
                .isEqualTo(server.getSpanId());
        assertThat(call.getName()).isEqualTo("GET");
        var attributes = call.getAttributes();
        assertThat(attributes.get(HttpAttributes.HTTP_REQUEST_METHOD)).isEqualTo("GET");
        assertThat(attributes.get(UrlAttributes.URL_FULL))
                .isEqualTo("http://127.0.0.1:" + upstream.port() + "/called?x=1");
        assertThat(attributes.get(ServerAttributes.SERVER_ADDRESS)).isEqualTo("127.0.0.1");
        assertThat(attributes.get(ServerAttributes.SERVER_PORT)).isEqualTo((long) upstream.port());
        assertThat(attributes.get(HttpAttributes.HTTP_RESPONSE_STATUS_CODE)).isEqualTo(200L);
        assertThat(call.getStatus().getStatusCode()).isEqualTo(StatusCode.UNSET);
    }

    @Test
    void startsANewTraceForACallMadeOutsideAnyRequest() throws Exception {
        client.send(upstream(), HttpRequest.of(HttpMethod.GET, "/alone"))
                .thenCompose(ClientSpanTest::read)
                .toCompletableFuture()
                .get(5, TimeUnit.SECONDS);

        SpanData call = single(spans.await(1));
        assertThat(call.getKind()).isEqualTo(SpanKind.CLIENT);
        assertThat(call.getParentSpanContext().isValid()).isFalse();
        assertThat(received.poll(5, TimeUnit.SECONDS))
                .isEqualTo("00-" + call.getTraceId() + "-" + call.getSpanId() + "-01");
    }

    @Test
    void recordsAFailedCallAsAnError() throws Exception {
        int closed;
        try (ServerSocket socket = new ServerSocket(0)) {
            closed = socket.getLocalPort();
        }

        client.send(Endpoint.of("127.0.0.1", closed), HttpRequest.of(HttpMethod.GET, "/"))
                .handle((response, failure) -> failure)
                .toCompletableFuture()
                .get(5, TimeUnit.SECONDS);

        SpanData call = single(spans.await(1));
        assertThat(call.getStatus().getStatusCode()).isEqualTo(StatusCode.ERROR);
        assertThat(call.getAttributes().get(ErrorAttributes.ERROR_TYPE))
                .isEqualTo(UpstreamConnectException.class.getName());
        assertThat(call.getAttributes().get(HttpAttributes.HTTP_RESPONSE_STATUS_CODE))
                .isNull();
    }

    @Test
    void sendsACallThatCarriesTraceFieldsUntraced() throws Exception {
        HttpRequest request =
                HttpRequest.of(HttpMethod.GET, "/forwarded").withHeaders(HttpHeaders.of("traceparent", TRACEPARENT));

        client.send(upstream(), request)
                .thenCompose(ClientSpanTest::read)
                .toCompletableFuture()
                .get(5, TimeUnit.SECONDS);

        assertThat(received.poll(5, TimeUnit.SECONDS)).isEqualTo(TRACEPARENT);
        assertThat(spans.await(0)).isEmpty();
    }

    private static Endpoint upstream() {
        return Endpoint.of("127.0.0.1", upstream.port());
    }

    private static CompletionStage<String> read(HttpResponse response) {
        return response.body().aggregate(1024).thenApply(data -> data.toStringUtf8());
    }

    private static SpanData ofKind(List<SpanData> ended, SpanKind kind) {
        return ended.stream().filter(span -> span.getKind() == kind).findFirst().orElseThrow();
    }

    private static SpanData single(List<SpanData> ended) {
        assertThat(ended).hasSize(1);
        return ended.get(0);
    }
}
