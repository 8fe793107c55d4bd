package io.parry.http.tracing;

import static org.assertj.core.api.Assertions.assertThat;

import io.parry.http.HttpHeaders;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

class B3MultiTest {
    private static final String TRACE_128 = "463ac35c9f6413ad48485a3953bb6124";
    private static final String TRACE_64 = "48485a3953bb6124";
    private static final String SPAN = "a2fb4a1d1a96d312";
    private static final String PARENT = "0020000000000001";
    private static final TracePropagation propagation = TracePropagation.ofDefault();

    @Test
    void readsA128BitTraceWithParentAndDecision() {
        TraceContext context = propagation.extract(HttpHeaders.of(
                "X-B3-TraceId", TRACE_128,
                "X-B3-SpanId", SPAN,
                "X-B3-ParentSpanId", PARENT,
                "X-B3-Sampled", "1"));

        assertThat(context.traceId()).isEqualTo(TRACE_128);
        assertThat(context.spanId()).isEqualTo(SPAN);
        assertThat(context.parentSpanId()).isEqualTo(PARENT);
        assertThat(context.sampled()).isTrue();
        assertThat(context.b3Format).isEqualTo(TraceFormat.B3_MULTI);
    }

    @Test
    void readsA64BitTraceIdInAnyNameCase() {
        TraceContext context = propagation.extract(HttpHeaders.of("x-b3-traceid", TRACE_64, "X-B3-SPANID", SPAN));

        assertThat(context.traceId()).isEqualTo("0000000000000000" + TRACE_64);
        assertThat(context.parentSpanId()).isNull();
        assertThat(context.sampled()).isTrue();
    }

    @ParameterizedTest
    @CsvSource({
        "1,,true,false",
        "true,,true,false",
        "0,,false,false",
        "false,,false,false",
        "0,1,true,true",
        ",1,true,true",
        "yes,,true,false",
        ",0,true,false"
    })
    void honoursTheSamplingFields(String sampled, String flags, boolean expectSampled, boolean expectDebug) {
        HttpHeaders.Builder headers =
                HttpHeaders.builder().add("X-B3-TraceId", TRACE_64).add("X-B3-SpanId", SPAN);
        if (sampled != null) {
            headers.add("X-B3-Sampled", sampled);
        }
        if (flags != null) {
            headers.add("X-B3-Flags", flags);
        }

        TraceContext context = propagation.extract(headers.build());

        assertThat(context.sampled()).isEqualTo(expectSampled);
        assertThat(context.debug()).isEqualTo(expectDebug);
    }

    @ParameterizedTest
    @CsvSource({
        "," + SPAN + ",",
        TRACE_64 + ",,",
        "48485A3953BB6124," + SPAN + ",",
        TRACE_64 + ",A2FB4A1D1A96D312,",
        "48485a3953bb612," + SPAN + ",",
        TRACE_128 + "0," + SPAN + ",",
        TRACE_64 + "," + SPAN + "0,",
        TRACE_64 + "," + SPAN + ",002000000000000",
        TRACE_64 + "," + SPAN + ",002000000000000x",
        "0000000000000000," + SPAN + ",",
        TRACE_64 + ",0000000000000000,",
    })
    void ignoresMissingOrMalformedIds(String traceId, String spanId, String parentSpanId) {
        HttpHeaders.Builder headers = HttpHeaders.builder().add("X-B3-Sampled", "1");
        if (traceId != null) {
            headers.add("X-B3-TraceId", traceId);
        }
        if (spanId != null) {
            headers.add("X-B3-SpanId", spanId);
        }
        if (parentSpanId != null) {
            headers.add("X-B3-ParentSpanId", parentSpanId);
        }

        assertThat(propagation.extract(headers.build())).isNull();
    }

    @Test
    void ignoresARepeatedId() {
        HttpHeaders headers = HttpHeaders.of("X-B3-TraceId", TRACE_64, "X-B3-TraceId", TRACE_64, "X-B3-SpanId", SPAN);

        assertThat(propagation.extract(headers)).isNull();
    }

    @Test
    void keepsADecisionSentWithoutIdsForANewRoot() {
        TraceContext unsampled = propagation.nextSpan(HttpHeaders.of("X-B3-Sampled", "0"));
        TraceContext debug = propagation.nextSpan(HttpHeaders.of("X-B3-Flags", "1"));

        assertThat(unsampled.sampled()).isFalse();
        assertThat(unsampled.parentSpanId()).isNull();
        assertThat(unsampled.b3Format).isEqualTo(TraceFormat.B3_MULTI);
        assertThat(debug.sampled()).isTrue();
        assertThat(debug.debug()).isTrue();
    }

    @Test
    void writesDebugAsFlagsAlone() {
        TraceContext context =
                propagation.extract(HttpHeaders.of("X-B3-TraceId", TRACE_64, "X-B3-SpanId", SPAN, "X-B3-Flags", "1"));

        HttpHeaders written = TracePropagation.of(TraceFormat.B3_MULTI).inject(context, HttpHeaders.empty());

        assertThat(written).isEqualTo(HttpHeaders.of("X-B3-TraceId", TRACE_64, "X-B3-SpanId", SPAN, "X-B3-Flags", "1"));
    }
}
