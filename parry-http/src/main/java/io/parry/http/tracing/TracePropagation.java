package io.parry.http.tracing;

import static java.util.Objects.requireNonNull;

import io.parry.http.HttpHeaders;
import java.util.EnumSet;
import java.util.Set;

/**
 * Reads a {@link TraceContext} from request header fields and writes one into them, in W3C Trace
 * Context and B3 (single and multi field). A server takes the span for a request with
 * {@link #nextSpan(HttpHeaders)}; a client or proxy passes the trace on with
 * {@link #inject(TraceContext, HttpHeaders)}.
 *
 * <pre>{@code
 * TraceContext call = ctx.traceContext().child();
 * HttpHeaders outgoing = TracePropagation.ofDefault().inject(call, request.headers());
 * }</pre>
 *
 * <p>Reading accepts every format, preferring {@code traceparent}, then {@code b3}, then the
 * {@code X-B3-*} fields. A malformed or oversized field is ignored, never an error. Writing replaces
 * every trace field of every format, so a stale one from the incoming request is never forwarded.
 * Immutable and thread-safe; allocation-free when a request carries no trace fields.
 */
public final class TracePropagation {
    private static final TracePropagation DEFAULT = new TracePropagation(EnumSet.of(TraceFormat.W3C), true);

    private final boolean w3c;
    private final boolean b3Single;
    private final boolean b3Multi;
    private final boolean keepIncomingB3;

    private TracePropagation(Set<TraceFormat> formats, boolean keepIncomingB3) {
        this.w3c = formats.contains(TraceFormat.W3C);
        this.b3Single = formats.contains(TraceFormat.B3_SINGLE);
        this.b3Multi = formats.contains(TraceFormat.B3_MULTI);
        this.keepIncomingB3 = keepIncomingB3;
    }

    /**
     * Writes W3C Trace Context, and B3 too when the trace arrived in B3, in the form it arrived in: a
     * B3 system downstream keeps its trace whether or not it reads {@code traceparent}.
     */
    public static TracePropagation ofDefault() {
        return DEFAULT;
    }

    /**
     * Writes exactly these formats, whatever format a trace arrived in.
     *
     * @throws IllegalArgumentException if no format is given
     */
    public static TracePropagation of(TraceFormat... formats) {
        requireNonNull(formats, "formats");
        if (formats.length == 0) {
            throw new IllegalArgumentException("formats: none (expected: at least one)");
        }
        EnumSet<TraceFormat> set = EnumSet.noneOf(TraceFormat.class);
        for (TraceFormat format : formats) {
            set.add(requireNonNull(format, "format"));
        }
        return new TracePropagation(set, false);
    }

    /**
     * The caller's span in the headers: its trace id, its span id as {@link TraceContext#spanId()},
     * its sampling decision and the {@code tracestate}; {@code null} when the headers carry no usable
     * trace context.
     */
    public TraceContext extract(HttpHeaders headers) {
        requireNonNull(headers, "headers");
        TraceFields fields = TraceFields.scan(headers);
        return fields == null ? null : callerSpan(fields);
    }

    /**
     * The span that serves a request with these headers: a {@link TraceContext#child() child} of the
     * caller's span, or a new sampled root when no usable context arrived. A B3 sampling decision
     * sent without ids ({@code b3: 0}, {@code X-B3-Sampled: 0}) is kept for the new root.
     */
    public TraceContext nextSpan(HttpHeaders headers) {
        requireNonNull(headers, "headers");
        TraceFields fields = TraceFields.scan(headers);
        if (fields == null) {
            return TraceContext.root(TraceContext.SAMPLED, null);
        }
        TraceContext caller = callerSpan(fields);
        if (caller != null) {
            return caller.child();
        }
        int decision = fields.b3() != null
                ? B3Single.samplingOnly(fields.b3())
                : B3Multi.sampling(fields.b3Sampled(), fields.b3Flags());
        return TraceContext.root(decision == B3Single.NO_DECISION ? TraceContext.SAMPLED : decision, fields.b3Format());
    }

    private static TraceContext callerSpan(TraceFields fields) {
        TraceFormat b3Format = fields.b3Format();
        String traceParent = fields.traceParent();
        if (traceParent != null) {
            TraceContext context = TraceParent.parse(traceParent, fields.traceState(), b3Format);
            if (context != null) {
                return context;
            }
        }
        String b3 = fields.b3();
        if (b3 != null) {
            TraceContext context = B3Single.parse(b3, b3Format);
            if (context != null) {
                return context;
            }
        }
        return B3Multi.parse(
                fields.b3TraceId(),
                fields.b3SpanId(),
                fields.b3ParentSpanId(),
                fields.b3Sampled(),
                fields.b3Flags(),
                b3Format);
    }

    /**
     * The headers with the span written in this propagation's formats, in place of any trace field
     * they held. Lowercase names for W3C and {@code b3}, the customary {@code X-B3-TraceId} case for
     * the multi-field form.
     */
    public HttpHeaders inject(TraceContext context, HttpHeaders headers) {
        requireNonNull(context, "context");
        requireNonNull(headers, "headers");
        HttpHeaders.Builder builder = headers.toBuilder();
        if (TraceFields.any(headers)) {
            removeTraceFields(builder);
        }
        write(context, builder);
        return builder.build();
    }

    /**
     * Writes the span into the builder as {@link #inject(TraceContext, HttpHeaders)} does, replacing
     * any trace field it holds.
     *
     * @return the builder
     */
    public HttpHeaders.Builder inject(TraceContext context, HttpHeaders.Builder headers) {
        requireNonNull(context, "context");
        requireNonNull(headers, "headers");
        removeTraceFields(headers);
        write(context, headers);
        return headers;
    }

    /**
     * Removes every trace field of every format from the builder: for a proxy that forwards a
     * request's other fields and lets its client give the call a span of its own, so that a caller's
     * trace fields are never passed on unchanged.
     *
     * @return the builder
     */
    public static HttpHeaders.Builder removeFields(HttpHeaders.Builder headers) {
        removeTraceFields(requireNonNull(headers, "headers"));
        return headers;
    }

    private static void removeTraceFields(HttpHeaders.Builder headers) {
        for (String name : TraceFields.NAMES) {
            headers.remove(name);
        }
    }

    private void write(TraceContext context, HttpHeaders.Builder headers) {
        if (w3c) {
            headers.add(TraceParent.NAME, TraceParent.format(context));
            if (!context.traceState.isEmpty()) {
                headers.add(TraceFields.TRACE_STATE, context.traceState);
            }
        }
        boolean incomingSingle = keepIncomingB3 && context.b3Format == TraceFormat.B3_SINGLE;
        boolean incomingMulti = keepIncomingB3 && context.b3Format == TraceFormat.B3_MULTI;
        if (b3Single || incomingSingle) {
            headers.add(B3Single.NAME, B3Single.format(context));
        }
        if (b3Multi || incomingMulti) {
            B3Multi.write(context, headers);
        }
    }

    @Override
    public String toString() {
        EnumSet<TraceFormat> formats = EnumSet.noneOf(TraceFormat.class);
        if (w3c) {
            formats.add(TraceFormat.W3C);
        }
        if (b3Single) {
            formats.add(TraceFormat.B3_SINGLE);
        }
        if (b3Multi) {
            formats.add(TraceFormat.B3_MULTI);
        }
        return "TracePropagation(" + formats + (keepIncomingB3 ? " and B3 as it arrived)" : ")");
    }
}
