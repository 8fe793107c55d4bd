package io.parry.client.internal;

import io.parry.http.HttpHeaders;
import io.parry.http.HttpRequest;
import io.parry.http.tracing.TraceContext;
import io.parry.http.tracing.TracePropagation;
import io.parry.transport.spi.CallerContext;

/** Gives a call the trace of the request it is made for, in a span of its own. */
final class CallTraces {
    private static final TracePropagation PROPAGATION = TracePropagation.ofDefault();

    private CallTraces() {}

    /**
     * The request with a new span in its trace fields: a child of the caller's span, or a new root
     * without a caller. A request with usable trace fields is returned as it is, since whoever put
     * them there chose the call's span; malformed ones are replaced.
     */
    static HttpRequest traced(HttpRequest request, CallerContext caller) {
        HttpHeaders headers = request.headers();
        if (PROPAGATION.extract(headers) != null) {
            return request;
        }
        TraceContext span = caller != null ? caller.traceContext().child() : TraceContext.newRoot(true);
        return request.withHeaders(PROPAGATION.inject(span, headers));
    }
}
