package io.parry.server.internal;

import io.parry.http.HttpRequest;
import io.parry.http.tracing.TraceContext;
import io.parry.server.RequestContext;
import io.parry.server.RequestLog;
import io.parry.server.RequestSpan;
import io.parry.server.RequestTracer;
import java.util.concurrent.atomic.AtomicBoolean;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Calls a {@link RequestTracer} and the spans it starts. A tracer that fails costs the request its
 * span, never the request; it is logged at WARN the first time and at DEBUG after that, so a broken
 * tracer cannot flood the log from every event loop.
 */
final class RequestSpans {
    private static final Logger log = LoggerFactory.getLogger("io.parry.server.tracer");
    private static final AtomicBoolean warned = new AtomicBoolean();

    private RequestSpans() {}

    /** The span the tracer started, or {@code null} when it failed to start one. */
    static RequestSpan start(RequestTracer tracer, RequestContext ctx, HttpRequest request, TraceContext proposed) {
        try {
            RequestSpan span = tracer.start(ctx, request, proposed);
            if (span == null || span.context() == null) {
                failed(tracer, new NullPointerException("the tracer returned no span"));
                return null;
            }
            return span;
        } catch (RuntimeException e) {
            failed(tracer, e);
            return null;
        }
    }

    /** Ends the span, if there is one. */
    static void end(RequestSpan span, RequestLog requestLog) {
        if (span == null) {
            return;
        }
        try {
            span.end(requestLog);
        } catch (RuntimeException e) {
            failed(span, e);
        }
    }

    private static void failed(Object culprit, RuntimeException failure) {
        if (warned.compareAndSet(false, true)) {
            log.warn("Request tracer {} failed; later failures are logged at DEBUG", culprit, failure);
        } else {
            log.debug("Request tracer {} failed", culprit, failure);
        }
    }
}
