package io.parry.logback.internal;

import ch.qos.logback.classic.util.LogbackMDCAdapter;
import io.parry.http.tracing.TraceContext;
import io.parry.transport.spi.CurrentCaller;
import io.parry.transport.spi.LazyRequestMdc;
import io.parry.transport.spi.RequestIds;
import java.util.Collections;
import java.util.HashMap;
import java.util.Map;

/**
 * Logback's MDC plus the ids of the request whose context is current on the thread, answered when
 * asked. Logback's events take the MDC through {@link #getPropertyMap()} when they are made, or are
 * prepared for an asynchronous appender, on the logging thread: the map it returns holds the ids as
 * strings, so an event keeps them wherever it is written.
 *
 * <p>A subclass of Logback's adapter because Logback's events ask an adapter of that type for its
 * read-only map; {@code getCopyOfContextMap} and {@code getKeys} go through that map too.
 */
public final class RequestMdcAdapter extends LogbackMDCAdapter implements LazyRequestMdc {

    @Override
    public String get(String key) {
        RequestIds request = currentRequest();
        TraceContext trace = request != null ? request.mdcTrace() : null;
        if (trace != null && key != null) {
            switch (key) {
                case TRACE_ID:
                    return trace.traceId();
                case SPAN_ID:
                    return trace.spanId();
                case REQUEST_ID:
                    return request.requestId();
                default:
                    break;
            }
        }
        return super.get(key);
    }

    @Override
    public Map<String, String> getPropertyMap() {
        Map<String, String> own = super.getPropertyMap();
        RequestIds request = currentRequest();
        TraceContext trace = request != null ? request.mdcTrace() : null;
        if (trace == null) {
            return own;
        }
        Map<String, String> map = own == null ? new HashMap<>(4) : new HashMap<>(own);
        map.put(TRACE_ID, trace.traceId());
        map.put(SPAN_ID, trace.spanId());
        map.put(REQUEST_ID, request.requestId());
        return Collections.unmodifiableMap(map);
    }

    /** The ids of the request the thread works for; the server's contexts are its callers too. */
    private static RequestIds currentRequest() {
        return CurrentCaller.get() instanceof RequestIds ids ? ids : null;
    }
}
