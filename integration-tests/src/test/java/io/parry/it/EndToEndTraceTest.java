package io.parry.it;

import static org.assertj.core.api.Assertions.assertThat;

import io.parry.client.Endpoint;
import io.parry.client.HttpClient;
import io.parry.client.upstream.Upstream;
import io.parry.http.HttpMethod;
import io.parry.http.HttpRequest;
import io.parry.http.HttpResponse;
import io.parry.http.tracing.TraceContext;
import io.parry.proxy.GuardedUpstream;
import io.parry.proxy.ProxyHandler;
import io.parry.server.Handler;
import io.parry.server.Server;
import io.parry.server.accesslog.AccessLog;
import java.net.URI;
import java.net.http.HttpResponse.BodyHandlers;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.slf4j.MDC;

/**
 * A trace started by a client passes through a gateway (a proxy), a service and the service's
 * upstream (called with Parry's client): one trace id in the access log of every hop, a span of its
 * own for each hop and each call between them, and the service's ids in the MDC of the stage its
 * handler chains on the client's call.
 */
class EndToEndTraceTest {
    private static final String TRACE_ID = "4bf92f3577b34da6a3ce929d0e0e4736";
    private static final String CLIENT_SPAN = "00f067aa0ba902b7";

    private static final BlockingQueue<String> gatewayLines = new LinkedBlockingQueue<>();
    private static final BlockingQueue<String> serviceLines = new LinkedBlockingQueue<>();
    private static final BlockingQueue<String> upstreamLines = new LinkedBlockingQueue<>();
    /** The traceparent each server received and the span it served the request in. */
    private static final CompletableFuture<Hop> serviceHop = new CompletableFuture<>();

    private static final CompletableFuture<Hop> upstreamHop = new CompletableFuture<>();
    /** The MDC in the stage the service chained on its call to the upstream. */
    private static final CompletableFuture<String> serviceContinuationMdc = new CompletableFuture<>();

    private static final List<AccessLog> accessLogs = new ArrayList<>();
    private static HttpClient client;
    private static GuardedUpstream services;
    private static Server upstream;
    private static Server service;
    private static Server gateway;

    record Hop(String traceparent, TraceContext span) {}

    @BeforeAll
    static void startThreeHops() {
        client = HttpClient.ofDefault();
        upstream = start(upstreamLines, (ctx, request) -> {
            upstreamHop.complete(new Hop(request.headers().get("traceparent"), ctx.traceContext()));
            return HttpResponse.ofText("order 1").toStage();
        });
        service = start(serviceLines, (ctx, request) -> {
            serviceHop.complete(new Hop(request.headers().get("traceparent"), ctx.traceContext()));
            return client.send(Endpoint.of("127.0.0.1", upstream.port()), HttpRequest.of(HttpMethod.GET, "/orders/1"))
                    .thenApply(response -> {
                        serviceContinuationMdc.complete(
                                MDC.get("traceId") + " " + MDC.get("spanId") + " " + MDC.get("requestId"));
                        return response;
                    });
        });
        services = GuardedUpstream.builder(Upstream.of("service", Endpoint.of("127.0.0.1", service.port())))
                .client(client)
                .build();
        gateway = start(gatewayLines, ProxyHandler.to(services));
    }

    private static Server start(BlockingQueue<String> lines, Handler handler) {
        AccessLog accessLog = AccessLog.builder().sink(lines::add).build();
        accessLogs.add(accessLog);
        return Server.builder()
                .host("127.0.0.1")
                .port(0)
                .listener(accessLog)
                .handler(handler)
                .build()
                .start();
    }

    @AfterAll
    static void stopThreeHops() {
        for (Server server : List.of(gateway, service, upstream)) {
            server.stop(Duration.ofSeconds(5));
        }
        accessLogs.forEach(AccessLog::close);
        services.close();
        client.close();
    }

    @Test
    void carriesTheClientsTraceThroughEveryHopWithASpanForEach() throws Exception {
        var response = java.net.http.HttpClient.newBuilder()
                .version(java.net.http.HttpClient.Version.HTTP_1_1)
                .build()
                .send(
                        java.net.http.HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + gateway.port() + "/o"))
                                .header("traceparent", "00-" + TRACE_ID + "-" + CLIENT_SPAN + "-01")
                                .build(),
                        BodyHandlers.ofString());
        assertThat(response.body()).isEqualTo("order 1");

        String gatewayLine = next(gatewayLines);
        String serviceLine = next(serviceLines);
        String upstreamLine = next(upstreamLines);
        assertThat(List.of(gatewayLine, serviceLine, upstreamLine))
                .extracting(line -> field(line, "traceId"))
                .containsOnly(TRACE_ID);
        String gatewaySpan = field(gatewayLine, "spanId");
        String serviceSpan = field(serviceLine, "spanId");
        String upstreamSpan = field(upstreamLine, "spanId");
        assertThat(List.of(CLIENT_SPAN, gatewaySpan, serviceSpan, upstreamSpan)).doesNotHaveDuplicates();
        assertThat(field(gatewayLine, "upstream")).isEqualTo("service/127.0.0.1:" + service.port());

        Hop atService = serviceHop.get(5, TimeUnit.SECONDS);
        Hop atUpstream = upstreamHop.get(5, TimeUnit.SECONDS);
        String gatewayCall = spanIdOf(atService.traceparent());
        String serviceCall = spanIdOf(atUpstream.traceparent());
        assertThat(atService.traceparent()).startsWith("00-" + TRACE_ID + "-");
        assertThat(atUpstream.traceparent()).startsWith("00-" + TRACE_ID + "-");
        assertThat(List.of(CLIENT_SPAN, gatewaySpan, gatewayCall, serviceSpan, serviceCall, upstreamSpan))
                .as("a span for each hop and each call between hops")
                .doesNotHaveDuplicates();
        assertThat(atService.span().spanId()).isEqualTo(serviceSpan);
        assertThat(atService.span().parentSpanId()).isEqualTo(gatewayCall);
        assertThat(atUpstream.span().spanId()).isEqualTo(upstreamSpan);
        assertThat(atUpstream.span().parentSpanId()).isEqualTo(serviceCall);

        assertThat(serviceContinuationMdc.get(5, TimeUnit.SECONDS))
                .isEqualTo(TRACE_ID + " " + serviceSpan + " " + field(serviceLine, "requestId"));
    }

    /** The span id in a version 00 traceparent. */
    private static String spanIdOf(String traceparent) {
        return traceparent.substring(36, 52);
    }

    private static String next(BlockingQueue<String> lines) throws InterruptedException {
        String line = lines.poll(5, TimeUnit.SECONDS);
        assertThat(line).as("an access log line").isNotNull();
        return line;
    }

    /** A string field of a JSON access log line; its values hold no quotes here. */
    private static String field(String line, String name) {
        String key = "\"" + name + "\":\"";
        int start = line.indexOf(key);
        assertThat(start).as("%s in %s", name, line).isNotNegative();
        start += key.length();
        return line.substring(start, line.indexOf('"', start));
    }
}
