package io.parry.it;

import static org.assertj.core.api.Assertions.assertThat;

import io.parry.http.HttpResponse;
import io.parry.http.tracing.TraceContext;
import io.parry.server.RequestLog;
import io.parry.server.RequestSpan;
import io.parry.server.RequestTracer;
import io.parry.server.Server;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse.BodyHandlers;
import java.time.Duration;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.slf4j.MDC;

class RequestTracerTest {
    private static final String TRACE_ID = "4bf92f3577b34da6a3ce929d0e0e4736";
    private static final String CALLER_SPAN = "00f067aa0ba902b7";
    private static final String TRACEPARENT = "00-" + TRACE_ID + "-" + CALLER_SPAN + "-01";
    /** The span id the tracer gives every span it starts. */
    private static final String TRACER_SPAN = "1111222233334444";

    private static final BlockingQueue<TraceContext> proposals = new LinkedBlockingQueue<>();
    private static final BlockingQueue<RequestLog> spanEnds = new LinkedBlockingQueue<>();
    private static final BlockingQueue<RequestLog> listened = new LinkedBlockingQueue<>();
    private static final BlockingQueue<String> handlerIds = new LinkedBlockingQueue<>();
    private static final AtomicInteger starts = new AtomicInteger();
    private static final HttpClient client =
            HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1).build();

    private static Server traced;
    private static Server broken;

    @BeforeAll
    static void startTheServers() {
        RequestTracer tracer = (ctx, request, proposed) -> {
            starts.incrementAndGet();
            proposals.add(proposed);
            TraceContext adopted = proposed.withIds(proposed.traceId(), TRACER_SPAN, true);
            return new RequestSpan() {
                @Override
                public TraceContext context() {
                    return adopted;
                }

                @Override
                public void end(RequestLog log) {
                    spanEnds.add(log);
                }
            };
        };
        traced = start(tracer);
        broken = start((ctx, request, proposed) -> {
            throw new IllegalStateException("a broken tracer, on purpose");
        });
    }

    private static Server start(RequestTracer tracer) {
        return Server.builder()
                .host("127.0.0.1")
                .port(0)
                .tracer(tracer)
                .listener(listened::add)
                .handler((ctx, request) -> {
                    handlerIds.add(MDC.get("traceId") + " " + MDC.get("spanId") + " "
                            + ctx.traceContext().traceId() + " "
                            + ctx.traceContext().spanId());
                    return HttpResponse.ofText("ok").toStage();
                })
                .build()
                .start();
    }

    @AfterAll
    static void stopTheServers() {
        traced.stop(Duration.ofSeconds(5));
        broken.stop(Duration.ofSeconds(5));
    }

    @BeforeEach
    void forgetEarlierRequests() {
        proposals.clear();
        spanEnds.clear();
        listened.clear();
        handlerIds.clear();
        starts.set(0);
    }

    @Test
    void usesTheTracersSpanIdsInTheContextTheMdcAndTheLog() throws Exception {
        assertThat(get(traced, TRACEPARENT)).isEqualTo(200);

        TraceContext proposed = proposals.poll(5, TimeUnit.SECONDS);
        assertThat(proposed.traceId()).isEqualTo(TRACE_ID);
        assertThat(proposed.parentSpanId()).isEqualTo(CALLER_SPAN);
        String ids = TRACE_ID + " " + TRACER_SPAN;
        assertThat(handlerIds.poll(5, TimeUnit.SECONDS)).isEqualTo(ids + " " + ids);
        RequestLog ended = spanEnds.poll(5, TimeUnit.SECONDS);
        assertThat(ended.spanId()).isEqualTo(TRACER_SPAN);
        assertThat(ended.status()).isEqualTo(200);
        assertThat(listened.poll(5, TimeUnit.SECONDS)).isSameAs(ended);
    }

    @Test
    void startsAndEndsOneSpanPerRequest() throws Exception {
        for (int i = 0; i < 3; i++) {
            assertThat(get(traced, null)).isEqualTo(200);
        }

        for (int i = 0; i < 3; i++) {
            assertThat(spanEnds.poll(5, TimeUnit.SECONDS)).isNotNull();
        }
        assertThat(starts).hasValue(3);
        assertThat(listened).as("listeners are told before the span ends").hasSize(3);
    }

    @Test
    void keepsParrysOwnSpanWhenTheTracerFails() throws Exception {
        assertThat(get(broken, TRACEPARENT)).isEqualTo(200);

        String[] ids = handlerIds.poll(5, TimeUnit.SECONDS).split(" ");
        assertThat(ids[0]).isEqualTo(TRACE_ID);
        assertThat(ids[1]).matches("[0-9a-f]{16}").isNotEqualTo(CALLER_SPAN);
        assertThat(ids[2] + " " + ids[3]).isEqualTo(ids[0] + " " + ids[1]);
        assertThat(listened.poll(5, TimeUnit.SECONDS).spanId()).isEqualTo(ids[1]);
    }

    private static int get(Server server, String traceparent) throws Exception {
        HttpRequest.Builder request = HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + server.port() + "/"));
        if (traceparent != null) {
            request.header("traceparent", traceparent);
        }
        return client.send(request.build(), BodyHandlers.discarding()).statusCode();
    }
}
