package io.parry.proxy;

import static org.assertj.core.api.Assertions.assertThat;

import io.parry.client.ClientOptions;
import io.parry.client.Endpoint;
import io.parry.client.HttpClient;
import io.parry.client.upstream.Upstream;
import io.parry.http.HttpBody;
import io.parry.http.HttpHeaders;
import io.parry.http.HttpResponse;
import io.parry.http.HttpStatus;
import io.parry.http.tracing.TraceContext;
import io.parry.http.tracing.TracePropagation;
import io.parry.testing.ServerExtension;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse.BodyHandlers;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

class ProxyTracingTest {
    private static final String TRACE_ID = "4bf92f3577b34da6a3ce929d0e0e4736";
    private static final String CALLER_SPAN = "00f067aa0ba902b7";
    private static final String TRACEPARENT = "00-" + TRACE_ID + "-" + CALLER_SPAN + "-01";
    private static final List<String> TRACE_FIELDS =
            List.of("traceparent", "tracestate", "b3", "x-b3-traceid", "x-b3-spanid", "x-b3-parentspanid");

    /** The trace fields of each request the upstream received, in order. */
    private static final BlockingQueue<Map<String, String>> received = new LinkedBlockingQueue<>();
    /** How many of the next requests the upstream answers 503. */
    private static final AtomicInteger failuresLeft = new AtomicInteger();
    /** The gateway's span for the last request it served. */
    private static final AtomicReference<TraceContext> gatewaySpan = new AtomicReference<>();

    @RegisterExtension
    static final ServerExtension upstream = ServerExtension.of((ctx, request) -> {
        Map<String, String> fields = new HashMap<>();
        for (String name : TRACE_FIELDS) {
            String value = request.headers().get(name);
            if (value != null) {
                fields.put(name, value);
            }
        }
        received.add(fields);
        HttpStatus status = failuresLeft.getAndDecrement() > 0 ? HttpStatus.SERVICE_UNAVAILABLE : HttpStatus.OK;
        return HttpResponse.of(status, HttpHeaders.empty(), HttpBody.empty()).toStage();
    });

    private static volatile ProxyHandler proxy;

    @RegisterExtension
    static final ServerExtension gateway = ServerExtension.of((ctx, request) -> {
        gatewaySpan.set(ctx.traceContext());
        return proxy.handle(ctx, request);
    });

    private static HttpClient tracingClient;
    private static HttpClient quietClient;
    private static GuardedUpstream traced;
    private static GuardedUpstream quiet;

    @BeforeAll
    static void startTheUpstreamClients() {
        tracingClient = HttpClient.ofDefault();
        quietClient = HttpClient.builder()
                .options(ClientOptions.builder().tracing(false).build())
                .build();
        Upstream target = Upstream.of("traced", Endpoint.of("127.0.0.1", upstream.port()));
        traced = GuardedUpstream.builder(target)
                .client(tracingClient)
                .breaker(BreakerOptions.disabled())
                .build();
        quiet = GuardedUpstream.builder(target).client(quietClient).build();
    }

    @AfterAll
    static void closeTheUpstreamClients() {
        traced.close();
        quiet.close();
        tracingClient.close();
        quietClient.close();
    }

    @BeforeEach
    void proxyWithQuickRetries() {
        received.clear();
        failuresLeft.set(0);
        proxy = ProxyHandler.builder(traced)
                .retry(RetryPolicy.builder()
                        .backoff(Duration.ofMillis(1))
                        .maxBackoff(Duration.ofMillis(2))
                        .build())
                .build();
    }

    @Test
    void givesTheUpstreamTheCallersTraceInASpanOfTheGateways() throws Exception {
        assertThat(send("traceparent", TRACEPARENT)).isEqualTo(200);

        TraceContext upstreamCall = callSpan(next());
        TraceContext server = gatewaySpan.get();
        assertThat(server.traceId()).isEqualTo(TRACE_ID);
        assertThat(server.parentSpanId()).isEqualTo(CALLER_SPAN);
        assertThat(upstreamCall.traceId()).isEqualTo(TRACE_ID);
        assertThat(upstreamCall.spanId())
                .as("a span for the call, neither the caller's forwarded nor the server's own")
                .isNotIn(CALLER_SPAN, server.spanId());
    }

    @Test
    void namesTheServersSpanAsTheParentInB3WhenTheRequestCameWithB3() throws Exception {
        assertThat(send("b3", TRACE_ID + "-" + CALLER_SPAN + "-1")).isEqualTo(200);

        Map<String, String> fields = next();
        TraceContext server = gatewaySpan.get();
        String callSpan = callSpan(fields).spanId();
        assertThat(fields.get("b3")).isEqualTo(TRACE_ID + "-" + callSpan + "-1-" + server.spanId());
        assertThat(server.parentSpanId()).isEqualTo(CALLER_SPAN);
    }

    @Test
    void startsANewTraceForAMalformedTraceparentAndStillPropagatesIt() throws Exception {
        assertThat(send("traceparent", "00-" + TRACE_ID + "-" + CALLER_SPAN + "-1"))
                .isEqualTo(200);

        TraceContext upstreamCall = callSpan(next());
        TraceContext server = gatewaySpan.get();
        assertThat(server.traceId()).isNotEqualTo(TRACE_ID);
        assertThat(server.parentSpanId()).isNull();
        assertThat(upstreamCall.traceId()).isEqualTo(server.traceId());
        assertThat(upstreamCall.spanId()).isNotEqualTo(server.spanId());
    }

    @Test
    void givesEachRetryASpanOfItsOwnInTheSameTrace() throws Exception {
        failuresLeft.set(2);

        assertThat(send("traceparent", TRACEPARENT)).isEqualTo(200);

        List<TraceContext> attempts = new ArrayList<>();
        for (int i = 0; i < 3; i++) {
            attempts.add(callSpan(next()));
        }
        assertThat(attempts).extracting(TraceContext::traceId).containsOnly(TRACE_ID);
        assertThat(attempts)
                .extracting(TraceContext::spanId)
                .doesNotHaveDuplicates()
                .doesNotContain(CALLER_SPAN, gatewaySpan.get().spanId());
    }

    @Test
    void forwardsNoTraceFieldsThroughAClientThatDoesNotTrace() throws Exception {
        proxy = ProxyHandler.to(quiet);

        assertThat(send("traceparent", TRACEPARENT)).isEqualTo(200);

        assertThat(next()).isEmpty();
    }

    private static TraceContext callSpan(Map<String, String> fields) {
        HttpHeaders.Builder headers = HttpHeaders.builder();
        fields.forEach(headers::add);
        TraceContext call = TracePropagation.ofDefault().extract(headers.build());
        assertThat(call).as("trace fields the upstream received: %s", fields).isNotNull();
        return call;
    }

    private static Map<String, String> next() throws InterruptedException {
        Map<String, String> fields = received.poll(5, TimeUnit.SECONDS);
        assertThat(fields).as("a request reached the upstream").isNotNull();
        return fields;
    }

    private static int send(String field, String value) throws Exception {
        return gateway.client()
                .send(
                        HttpRequest.newBuilder(gateway.uri("/t"))
                                .header(field, value)
                                .build(),
                        BodyHandlers.discarding())
                .statusCode();
    }
}
