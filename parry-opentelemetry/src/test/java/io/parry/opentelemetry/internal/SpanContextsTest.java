package io.parry.opentelemetry.internal;

import static org.assertj.core.api.Assertions.assertThat;

import io.opentelemetry.api.OpenTelemetry;
import io.opentelemetry.api.trace.Span;
import io.opentelemetry.api.trace.SpanContext;
import io.opentelemetry.api.trace.TraceState;
import io.parry.http.HttpHeaders;
import io.parry.http.tracing.TraceContext;
import io.parry.http.tracing.TracePropagation;
import org.junit.jupiter.api.Test;

class SpanContextsTest {
    private static final String TRACE_ID = "4bf92f3577b34da6a3ce929d0e0e4736";
    private static final String CALLER_SPAN = "00f067aa0ba902b7";

    @Test
    void givesTheCallersSpanAsARemoteParentWithItsTraceState() {
        TraceContext server = serverSpan("congo=t61rcWkgMzE, rojo=00f067aa0ba902b7");

        SpanContext parent = Span.fromContext(SpanContexts.remoteParent(server)).getSpanContext();

        assertThat(parent.isRemote()).isTrue();
        assertThat(parent.getTraceId()).isEqualTo(TRACE_ID);
        assertThat(parent.getSpanId()).isEqualTo(CALLER_SPAN);
        assertThat(parent.isSampled()).isTrue();
        assertThat(parent.getTraceState().asMap())
                .containsEntry("congo", "t61rcWkgMzE")
                .containsEntry("rojo", "00f067aa0ba902b7");
        assertThat(parent.getTraceState().asMap().keySet()).containsExactly("congo", "rojo");
    }

    @Test
    void givesNoParentForARoot() {
        assertThat(SpanContexts.remoteParent(TraceContext.newRoot(true))).isNull();
    }

    @Test
    void givesASpanOfThisProcessAsALocalParent() {
        TraceContext server = serverSpan("");

        SpanContext local = Span.fromContext(SpanContexts.local(server)).getSpanContext();

        assertThat(local.isRemote()).isFalse();
        assertThat(local.getSpanId()).isEqualTo(server.spanId());
        assertThat(local.getTraceState()).isEqualTo(TraceState.getDefault());
    }

    @Test
    void keepsParrysIdsWhenANoopOpenTelemetryStartsNoSpan() {
        TraceContext server = serverSpan("");
        Span started = OpenTelemetry.noop()
                .getTracer("test")
                .spanBuilder("GET")
                .setParent(SpanContexts.remoteParent(server))
                .startSpan();

        assertThat(started.getSpanContext().getSpanId())
                .as("a no-op span is its parent")
                .isEqualTo(CALLER_SPAN);
        assertThat(SpanContexts.adopt(server, started.getSpanContext(), CALLER_SPAN))
                .isSameAs(server);
        assertThat(SpanContexts.adopt(server, SpanContext.getInvalid(), null)).isSameAs(server);
    }

    private static TraceContext serverSpan(String traceState) {
        HttpHeaders.Builder headers =
                HttpHeaders.builder().add("traceparent", "00-" + TRACE_ID + "-" + CALLER_SPAN + "-01");
        if (!traceState.isEmpty()) {
            headers.add("tracestate", traceState);
        }
        return TracePropagation.ofDefault().nextSpan(headers.build());
    }
}
