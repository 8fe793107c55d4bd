package io.parry.http.tracing;

import io.parry.http.HttpHeaders;

/**
 * B3 in several fields: {@code X-B3-TraceId} (16 or 32 lowercase hex digits), {@code X-B3-SpanId}
 * (16), {@code X-B3-ParentSpanId} (16, absent on a root span), {@code X-B3-Sampled} ({@code 1} or
 * {@code 0}; {@code true} and {@code false} from older tracers too) and {@code X-B3-Flags} ({@code 1}
 * for debug, which implies sampled).
 */
final class B3Multi {
    static final String TRACE_ID = "X-B3-TraceId";
    static final String SPAN_ID = "X-B3-SpanId";
    static final String PARENT_SPAN_ID = "X-B3-ParentSpanId";
    static final String SAMPLED = "X-B3-Sampled";
    static final String FLAGS = "X-B3-Flags";

    private B3Multi() {}

    /**
     * The caller's span in the fields, or {@code null} when an id is missing or malformed. Without a
     * sampling decision the span is taken as sampled, as Parry samples the traces it starts.
     */
    static TraceContext parse(
            String traceId, String spanId, String parentSpanId, String sampled, String flags, TraceFormat b3Format) {
        if (traceId == null || spanId == null || spanId.length() != 16) {
            return null;
        }
        int traceLength = traceId.length();
        if (traceLength != 16 && traceLength != 32) {
            return null;
        }
        long trace1 = traceLength == 32 ? Hex.parse8(traceId, 0) : 0;
        long trace2 = traceLength == 32 ? Hex.parse8(traceId, 8) : 0;
        long trace3 = Hex.parse8(traceId, traceLength - 16);
        long trace4 = Hex.parse8(traceId, traceLength - 8);
        long span1 = Hex.parse8(spanId, 0);
        long span2 = Hex.parse8(spanId, 8);
        long parent1 = 0;
        long parent2 = 0;
        if (parentSpanId != null) {
            if (parentSpanId.length() != 16) {
                return null;
            }
            parent1 = Hex.parse8(parentSpanId, 0);
            parent2 = Hex.parse8(parentSpanId, 8);
        }
        if ((trace1 | trace2 | trace3 | trace4 | span1 | span2 | parent1 | parent2) < 0) {
            return null;
        }
        long traceHigh = trace1 << 32 | trace2;
        long traceLow = trace3 << 32 | trace4;
        long span = span1 << 32 | span2;
        if ((traceHigh | traceLow) == 0 || span == 0) {
            return null;
        }
        int decision = sampling(sampled, flags);
        int sampling = decision == B3Single.NO_DECISION ? TraceContext.SAMPLED : decision;
        // An all-zero parent is read as none: the span is still usable.
        return new TraceContext(traceHigh, traceLow, span, parent1 << 32 | parent2, sampling, "", b3Format);
    }

    /**
     * The flags the sampling fields ask for, or {@link B3Single#NO_DECISION}: debug wins over
     * {@code X-B3-Sampled}, and an unknown value is no decision.
     */
    static int sampling(String sampled, String flags) {
        if ("1".equals(flags)) {
            return TraceContext.SAMPLED | TraceContext.DEBUG;
        }
        if ("1".equals(sampled) || "true".equals(sampled)) {
            return TraceContext.SAMPLED;
        }
        if ("0".equals(sampled) || "false".equals(sampled)) {
            return 0;
        }
        return B3Single.NO_DECISION;
    }

    /** Adds the span's fields; debug is sent as {@code X-B3-Flags} alone, as it implies sampled. */
    static void write(TraceContext context, HttpHeaders.Builder headers) {
        headers.add(TRACE_ID, context.traceIdHigh != 0 ? context.traceId() : Hex.toHex(context.traceIdLow));
        headers.add(SPAN_ID, context.spanId());
        if (context.parentSpanId != 0) {
            headers.add(PARENT_SPAN_ID, Hex.toHex(context.parentSpanId));
        }
        if (context.debug()) {
            headers.add(FLAGS, "1");
        } else {
            headers.add(SAMPLED, context.sampled() ? "1" : "0");
        }
    }
}
