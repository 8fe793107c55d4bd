package io.parry.server.internal;

import io.parry.http.HttpHeaders;
import io.parry.http.HttpRequest;
import io.parry.http.tracing.TraceContext;
import io.parry.server.EndedBy;
import io.parry.server.RequestLog;
import java.time.Instant;

/** Takes the {@link RequestLog} snapshot of an exchange that ended. */
final class ExchangeLog {
    private ExchangeLog() {}

    static RequestLog of(Exchange exchange, int status, boolean completed, long endNanos) {
        long duration = endNanos - exchange.startNanos;
        RequestLog.Builder log = RequestLog.builder()
                .route(exchange.route)
                .status(status)
                .completed(completed)
                .bytesIn(exchange.bodyBytesReceived())
                .bytesOut(exchange.bodyBytesSent())
                // Derived at the end rather than read at the start, so a request nobody logs reads no clock.
                .start(Instant.now().minusNanos(duration))
                .durationNanos(duration)
                .upstream(exchange.upstream)
                .upstreamNanos(exchange.upstreamNanos)
                .requestId(exchange.requestId())
                .remoteAddress(exchange.remoteAddress())
                .protocol(exchange.protocol())
                .endedBy(endedBy(exchange, status, completed));
        TraceContext trace = exchange.runtime().tracing ? exchange.traceContext() : exchange.traceIfMade();
        if (trace != null) {
            log.trace(trace.traceId(), trace.spanId());
        }
        HttpRequest request = exchange.requestOrNull();
        if (request != null) {
            HttpHeaders headers = request.headers();
            log.method(request.method())
                    .path(request.path())
                    .query(exchange.loggedQuery != null ? exchange.loggedQuery : request.query())
                    .userAgent(headers.get("user-agent"))
                    .referer(headers.get("referer"));
        } else if (exchange.refusedTarget() != null) {
            String target = exchange.refusedTarget();
            int question = target.indexOf('?');
            log.method(exchange.refusedMethod())
                    .path(question < 0 ? target : target.substring(0, question))
                    .query(question < 0 ? "" : target.substring(question + 1));
        }
        return log.build();
    }

    /**
     * What the handling code said, else what the server saw: a request it refused before any handler,
     * or a connection that closed before any response was started (the client left).
     */
    private static EndedBy endedBy(Exchange exchange, int status, boolean completed) {
        if (exchange.endedBy != null) {
            return exchange.endedBy;
        }
        if (!exchange.responseStarted()) {
            return completed ? null : EndedBy.CLIENT;
        }
        boolean refused = exchange.requestOrNull() == null && status < 500;
        return refused ? EndedBy.CLIENT : null;
    }
}
