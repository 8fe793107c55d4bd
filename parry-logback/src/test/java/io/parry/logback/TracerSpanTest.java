package io.parry.logback;

import static org.assertj.core.api.Assertions.assertThat;

import io.parry.http.HttpResponse;
import io.parry.http.tracing.TraceContext;
import io.parry.server.RequestLog;
import io.parry.server.RequestSpan;
import io.parry.server.RequestTracer;
import io.parry.server.Server;
import io.parry.testing.RawConnection;
import java.time.Duration;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;

/** A tracer's span starts before the handler runs, whether or not an MDC asked for the request's ids. */
class TracerSpanTest {
    private static final AtomicInteger started = new AtomicInteger();
    private static final BlockingQueue<Integer> startedBeforeHandler = new LinkedBlockingQueue<>();

    private static final RequestTracer TRACER = (ctx, request, proposed) -> {
        started.incrementAndGet();
        return new RequestSpan() {
            @Override
            public TraceContext context() {
                return proposed;
            }

            @Override
            public void end(RequestLog log) {}
        };
    };

    @Test
    void startsTheSpanBeforeAHandlerThatAsksForNoIds() throws Exception {
        Server server = Server.builder()
                .host("127.0.0.1")
                .port(0)
                .tracer(TRACER)
                .handler((ctx, request) -> {
                    startedBeforeHandler.add(started.get());
                    return HttpResponse.ofText("ok").toStage();
                })
                .build()
                .start();
        try (RawConnection connection = RawConnection.open("127.0.0.1", server.port())) {
            connection.send("GET / HTTP/1.1\nHost: a\n\n");
            assertThat(connection.readResponse().status()).isEqualTo(200);
        } finally {
            server.stop(Duration.ofSeconds(5));
        }

        assertThat(startedBeforeHandler.poll(5, TimeUnit.SECONDS)).isEqualTo(1);
    }
}
