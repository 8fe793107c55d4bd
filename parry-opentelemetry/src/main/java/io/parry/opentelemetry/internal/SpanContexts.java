package io.parry.opentelemetry.internal;

import io.opentelemetry.api.trace.Span;
import io.opentelemetry.api.trace.SpanContext;
import io.opentelemetry.api.trace.TraceFlags;
import io.opentelemetry.api.trace.TraceState;
import io.opentelemetry.api.trace.TraceStateBuilder;
import io.opentelemetry.context.Context;
import io.parry.http.tracing.TraceContext;

/** Moves span ids between Parry's {@link TraceContext} and OpenTelemetry's {@link SpanContext}. */
public final class SpanContexts {
    private SpanContexts() {}

    /** An OpenTelemetry context whose span is {@code trace}'s span, in this process, to start children in. */
    public static Context local(TraceContext trace) {
        SpanContext span =
                SpanContext.create(trace.traceId(), trace.spanId(), flags(trace), traceState(trace.traceState()));
        return Context.root().with(Span.wrap(span));
    }

    /**
     * An OpenTelemetry context whose span is the parent of {@code trace}: the caller's span, in another
     * process; {@code null} for a root span.
     */
    static Context remoteParent(TraceContext trace) {
        String parent = trace.parentSpanId();
        if (parent == null) {
            return null;
        }
        SpanContext span = SpanContext.createFromRemoteParent(
                trace.traceId(), parent, flags(trace), traceState(trace.traceState()));
        return Context.root().with(Span.wrap(span));
    }

    /**
     * {@code proposed} with the ids of the span OpenTelemetry started for it. A no-op OpenTelemetry
     * starts no span: it gives an invalid context, or its parent's, and Parry keeps its own ids.
     *
     * @param parentSpanId the span id of the parent the span was started with, or {@code null}
     */
    static TraceContext adopt(TraceContext proposed, SpanContext started, String parentSpanId) {
        if (!started.isValid() || started.getSpanId().equals(parentSpanId)) {
            return proposed;
        }
        return proposed.withIds(started.getTraceId(), started.getSpanId(), started.isSampled());
    }

    private static TraceFlags flags(TraceContext trace) {
        return trace.sampled() ? TraceFlags.getSampled() : TraceFlags.getDefault();
    }

    /**
     * The W3C {@code tracestate} list, {@code key=value} members separated by commas and optional
     * spaces. Parry has already bounded its length; members OpenTelemetry finds invalid are dropped.
     */
    static TraceState traceState(String text) {
        if (text.isEmpty()) {
            return TraceState.getDefault();
        }
        TraceStateBuilder builder = TraceState.builder();
        String[] members = text.split(",");
        // The first member is the newest; put() places each new key first, so add them oldest first.
        for (int i = members.length - 1; i >= 0; i--) {
            String member = members[i].trim();
            int equals = member.indexOf('=');
            if (equals > 0) {
                builder.put(member.substring(0, equals), member.substring(equals + 1));
            }
        }
        return builder.build();
    }
}
