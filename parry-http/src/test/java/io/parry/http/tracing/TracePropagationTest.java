package io.parry.http.tracing;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.parry.http.HttpHeaders;
import org.junit.jupiter.api.Test;

class TracePropagationTest {
    private static final String TRACE_ID = "4bf92f3577b34da6a3ce929d0e0e4736";
    private static final String TRACEPARENT = "00-" + TRACE_ID + "-00f067aa0ba902b7-01";
    private static final String B3 = "80f198ee56343ba864fe8b2a57d3eff7-e457b5a2e4d86bd1-1";
    private static final TracePropagation propagation = TracePropagation.ofDefault();

    @Test
    void findsNothingInHeadersWithoutTraceFields() {
        assertThat(propagation.extract(HttpHeaders.of("host", "a", "accept", "*/*")))
                .isNull();
        assertThat(propagation.extract(HttpHeaders.empty())).isNull();
    }

    @Test
    void prefersTraceparentOverB3() {
        TraceContext context = propagation.extract(HttpHeaders.of("b3", B3, "traceparent", TRACEPARENT));

        assertThat(context.traceId()).isEqualTo(TRACE_ID);
        assertThat(context.b3Format).isEqualTo(TraceFormat.B3_SINGLE);
    }

    @Test
    void fallsBackToB3WhenTraceparentIsMalformed() {
        TraceContext context = propagation.extract(HttpHeaders.of("traceparent", "00-nonsense", "b3", B3));

        assertThat(context.traceId()).isEqualTo("80f198ee56343ba864fe8b2a57d3eff7");
    }

    @Test
    void prefersTheSingleB3FieldOverTheMultiFieldForm() {
        TraceContext context = propagation.extract(HttpHeaders.of(
                "X-B3-TraceId", "463ac35c9f6413ad48485a3953bb6124", "X-B3-SpanId", "a2fb4a1d1a96d312", "b3", B3));

        assertThat(context.traceId()).isEqualTo("80f198ee56343ba864fe8b2a57d3eff7");
    }

    @Test
    void nextSpanIsAChildOfTheCallersSpan() {
        TraceContext span = propagation.nextSpan(HttpHeaders.of("traceparent", TRACEPARENT));

        assertThat(span.traceId()).isEqualTo(TRACE_ID);
        assertThat(span.parentSpanId()).isEqualTo("00f067aa0ba902b7");
        assertThat(span.spanId()).isNotEqualTo("00f067aa0ba902b7");
        assertThat(span.sampled()).isTrue();
    }

    @Test
    void nextSpanStartsASampledTraceWhenNoneOrAMalformedOneArrives() {
        TraceContext none = propagation.nextSpan(HttpHeaders.of("host", "a"));
        TraceContext malformed = propagation.nextSpan(HttpHeaders.of("traceparent", "00-" + TRACE_ID + "-zz"));

        assertThat(none.parentSpanId()).isNull();
        assertThat(none.sampled()).isTrue();
        assertThat(malformed.traceId()).isNotEqualTo(TRACE_ID).isNotEqualTo(none.traceId());
        assertThat(malformed.parentSpanId()).isNull();
    }

    @Test
    void nextSpanHonoursAnUnsampledCaller() {
        TraceContext span = propagation.nextSpan(HttpHeaders.of("traceparent", TRACEPARENT.replace("-01", "-00")));

        assertThat(span.sampled()).isFalse();
        assertThat(span.child().sampled()).isFalse();
    }

    @Test
    void writesW3cForATraceThatArrivedInW3c() {
        TraceContext span = propagation.nextSpan(HttpHeaders.of("traceparent", TRACEPARENT, "tracestate", "congo=t61"));

        HttpHeaders written = propagation.inject(span, HttpHeaders.of("host", "upstream"));

        assertThat(written)
                .isEqualTo(HttpHeaders.of(
                        "host", "upstream",
                        "traceparent", "00-" + TRACE_ID + "-" + span.spanId() + "-01",
                        "tracestate", "congo=t61"));
    }

    @Test
    void writesOnlyW3cForANewRoot() {
        TraceContext root = TraceContext.newRoot(false);

        HttpHeaders written = propagation.inject(root, HttpHeaders.empty());

        assertThat(written)
                .isEqualTo(HttpHeaders.of("traceparent", "00-" + root.traceId() + "-" + root.spanId() + "-00"));
    }

    @Test
    void writesB3TooInTheFormItArrivedIn() {
        TraceContext single = propagation.nextSpan(HttpHeaders.of("b3", B3));
        TraceContext multi = propagation.nextSpan(HttpHeaders.of(
                "X-B3-TraceId", "48485a3953bb6124", "X-B3-SpanId", "a2fb4a1d1a96d312", "X-B3-Sampled", "0"));

        HttpHeaders singleWritten = propagation.inject(single, HttpHeaders.empty());
        HttpHeaders multiWritten = propagation.inject(multi, HttpHeaders.empty());

        assertThat(singleWritten.get("traceparent")).startsWith("00-80f198ee56343ba864fe8b2a57d3eff7-");
        assertThat(singleWritten.get("b3"))
                .isEqualTo("80f198ee56343ba864fe8b2a57d3eff7-" + single.spanId() + "-1-e457b5a2e4d86bd1");
        assertThat(singleWritten.contains("X-B3-TraceId")).isFalse();
        assertThat(multiWritten)
                .isEqualTo(HttpHeaders.of(
                        "traceparent", "00-000000000000000048485a3953bb6124-" + multi.spanId() + "-00",
                        "X-B3-TraceId", "48485a3953bb6124",
                        "X-B3-SpanId", multi.spanId(),
                        "X-B3-ParentSpanId", "a2fb4a1d1a96d312",
                        "X-B3-Sampled", "0"));
    }

    @Test
    void writesExactlyTheFormatsAskedFor() {
        TraceContext span = propagation.nextSpan(HttpHeaders.of("b3", B3));

        HttpHeaders written = TracePropagation.of(TraceFormat.B3_MULTI).inject(span, HttpHeaders.empty());

        assertThat(written.contains("traceparent")).isFalse();
        assertThat(written.contains("b3")).isFalse();
        assertThat(written.get("X-B3-TraceId")).isEqualTo("80f198ee56343ba864fe8b2a57d3eff7");
        assertThat(TracePropagation.of(TraceFormat.W3C, TraceFormat.B3_SINGLE)
                        .inject(TraceContext.newRoot(true), HttpHeaders.empty())
                        .size())
                .isEqualTo(2);
    }

    @Test
    void replacesEveryStaleTraceField() {
        HttpHeaders incoming = HttpHeaders.of(
                "Traceparent", TRACEPARENT,
                "TRACESTATE", "a=b",
                "B3", B3,
                "x-b3-traceid", "48485a3953bb6124",
                "x-b3-spanid", "a2fb4a1d1a96d312",
                "x-b3-parentspanid", "0020000000000001",
                "x-b3-sampled", "1",
                "x-b3-flags", "1",
                "accept", "*/*");
        TraceContext root = TraceContext.newRoot(true);

        HttpHeaders written = TracePropagation.of(TraceFormat.W3C).inject(root, incoming);

        assertThat(written)
                .isEqualTo(HttpHeaders.of(
                        "accept", "*/*", "traceparent", "00-" + root.traceId() + "-" + root.spanId() + "-01"));
    }

    @Test
    void writesIntoABuilder() {
        TraceContext root = TraceContext.newRoot(true);
        HttpHeaders.Builder builder = HttpHeaders.builder().add("traceparent", TRACEPARENT);

        assertThat(propagation.inject(root, builder)).isSameAs(builder);
        assertThat(builder.build().getAll("traceparent"))
                .containsExactly("00-" + root.traceId() + "-" + root.spanId() + "-01");
    }

    @Test
    void readsBackWhatItWrites() {
        TraceContext span = propagation.nextSpan(HttpHeaders.of("b3", B3.replace("-1", "-d")));
        for (TraceFormat format : TraceFormat.values()) {
            HttpHeaders written = TracePropagation.of(format).inject(span, HttpHeaders.empty());

            TraceContext read = propagation.extract(written);

            assertThat(read.traceId()).as("%s", format).isEqualTo(span.traceId());
            assertThat(read.spanId()).as("%s", format).isEqualTo(span.spanId());
            assertThat(read.sampled()).as("%s", format).isTrue();
        }
    }

    @Test
    void refusesAnEmptyFormatList() {
        assertThatThrownBy(TracePropagation::of)
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessage("formats: none (expected: at least one)");
    }
}
