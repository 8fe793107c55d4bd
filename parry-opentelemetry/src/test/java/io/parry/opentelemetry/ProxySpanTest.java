package io.parry.opentelemetry;

import static org.assertj.core.api.Assertions.assertThat;

import io.opentelemetry.api.common.AttributeKey;
import io.opentelemetry.api.trace.SpanKind;
import io.opentelemetry.api.trace.StatusCode;
import io.opentelemetry.sdk.trace.data.SpanData;
import io.opentelemetry.semconv.HttpAttributes;
import io.parry.client.Endpoint;
import io.parry.client.HttpClient;
import io.parry.client.upstream.Upstream;
import io.parry.http.HttpBody;
import io.parry.http.HttpHeaders;
import io.parry.http.HttpResponse;
import io.parry.http.HttpStatus;
import io.parry.proxy.BreakerOptions;
import io.parry.proxy.GuardedUpstream;
import io.parry.proxy.ProxyHandler;
import io.parry.proxy.RetryPolicy;
import io.parry.server.Server;
import java.net.URI;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse.BodyHandlers;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

class ProxySpanTest {
    private static final String TRACE_ID = "4bf92f3577b34da6a3ce929d0e0e4736";
    private static final String CALLER_SPAN = "00f067aa0ba902b7";

    private static final RecordedSpans spans = new RecordedSpans();
    private static final BlockingQueue<String> received = new LinkedBlockingQueue<>();
    /** How many of the next requests the upstream answers 503. */
    private static final AtomicInteger failuresLeft = new AtomicInteger();

    private static Server upstream;
    private static HttpClient upstreamClient;
    private static GuardedUpstream users;
    private static Server gateway;

    @BeforeAll
    static void startTheGateway() {
        upstream = Server.builder()
                .host("127.0.0.1")
                .port(0)
                .handler((ctx, request) -> {
                    received.add(request.headers().get("traceparent"));
                    HttpStatus status =
                            failuresLeft.getAndDecrement() > 0 ? HttpStatus.SERVICE_UNAVAILABLE : HttpStatus.OK;
                    return HttpResponse.of(status, HttpHeaders.empty(), HttpBody.empty())
                            .toStage();
                })
                .build()
                .start();
        ParryOpenTelemetry otel = ParryOpenTelemetry.of(spans.openTelemetry());
        upstreamClient =
                HttpClient.builder().filter(otel.upstreamFilter("users")).build();
        users = GuardedUpstream.builder(Upstream.of("users", Endpoint.of("127.0.0.1", upstream.port())))
                .client(upstreamClient)
                .breaker(BreakerOptions.disabled())
                .build();
        ProxyHandler proxy = ProxyHandler.builder(users)
                .retry(RetryPolicy.builder()
                        .backoff(Duration.ofMillis(1))
                        .maxBackoff(Duration.ofMillis(2))
                        .build())
                .build();
        gateway = Server.builder()
                .host("127.0.0.1")
                .port(0)
                .handler(proxy)
                .tracer(otel.requestTracer())
                .build()
                .start();
    }

    @AfterAll
    static void stopTheGateway() {
        gateway.stop(Duration.ofSeconds(5));
        users.close();
        upstreamClient.close();
        upstream.stop(Duration.ofSeconds(5));
        spans.close();
    }

    @Test
    void recordsEachAttemptRetriesIncludedAsAClientSpanUnderTheServerSpan() throws Exception {
        failuresLeft.set(2);

        int status = java.net.http.HttpClient.newHttpClient()
                .send(
                        HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + gateway.port() + "/users/1"))
                                .header("traceparent", "00-" + TRACE_ID + "-" + CALLER_SPAN + "-01")
                                .build(),
                        BodyHandlers.discarding())
                .statusCode();
        assertThat(status).isEqualTo(200);

        List<SpanData> ended = spans.await(4);
        SpanData server = ended.stream()
                .filter(span -> span.getKind() == SpanKind.SERVER)
                .findFirst()
                .orElseThrow();
        List<SpanData> attempts = new ArrayList<>(ended);
        attempts.remove(server);
        assertThat(server.getParentSpanId()).isEqualTo(CALLER_SPAN);
        assertThat(attempts).hasSize(3).allSatisfy(attempt -> {
            assertThat(attempt.getKind()).isEqualTo(SpanKind.CLIENT);
            assertThat(attempt.getTraceId()).isEqualTo(TRACE_ID);
            assertThat(attempt.getParentSpanId()).isEqualTo(server.getSpanId());
            assertThat(attempt.getAttributes().get(AttributeKey.stringKey("parry.upstream")))
                    .isEqualTo("users");
        });
        assertThat(attempts)
                .extracting(attempt -> attempt.getAttributes().get(HttpAttributes.HTTP_RESPONSE_STATUS_CODE))
                .containsExactly(503L, 503L, 200L);
        assertThat(attempts)
                .extracting(attempt -> attempt.getStatus().getStatusCode())
                .containsExactly(StatusCode.ERROR, StatusCode.ERROR, StatusCode.UNSET);
        List<String> sent = new ArrayList<>();
        for (int i = 0; i < 3; i++) {
            sent.add(received.poll(5, TimeUnit.SECONDS));
        }
        assertThat(sent)
                .as("each attempt sent its own span's ids upstream")
                .containsExactlyElementsOf(attempts.stream()
                        .map(attempt -> "00-" + TRACE_ID + "-" + attempt.getSpanId() + "-01")
                        .toList());
    }
}
