package io.parry.http.tracing;

import static org.assertj.core.api.Assertions.assertThat;

import io.parry.http.HttpHeaders;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

class B3SingleTest {
    private static final String TRACE_128 = "80f198ee56343ba864fe8b2a57d3eff7";
    private static final String TRACE_64 = "64fe8b2a57d3eff7";
    private static final String SPAN = "e457b5a2e4d86bd1";
    private static final String PARENT = "05e3ac9a4f6e3b90";
    private static final TracePropagation propagation = TracePropagation.ofDefault();

    @Test
    void readsA128BitTraceWithSamplingAndParent() {
        TraceContext context = extract(TRACE_128 + "-" + SPAN + "-1-" + PARENT);

        assertThat(context.traceId()).isEqualTo(TRACE_128);
        assertThat(context.spanId()).isEqualTo(SPAN);
        assertThat(context.parentSpanId()).isEqualTo(PARENT);
        assertThat(context.sampled()).isTrue();
        assertThat(context.debug()).isFalse();
    }

    @Test
    void readsA64BitTraceIdPaddedToThirtyTwoDigits() {
        TraceContext context = extract(TRACE_64 + "-" + SPAN + "-0");

        assertThat(context.traceId()).isEqualTo("0000000000000000" + TRACE_64);
        assertThat(context.spanId()).isEqualTo(SPAN);
        assertThat(context.parentSpanId()).isNull();
        assertThat(context.sampled()).isFalse();
    }

    @Test
    void readsDebugAsSampled() {
        TraceContext context = extract(TRACE_64 + "-" + SPAN + "-d");

        assertThat(context.sampled()).isTrue();
        assertThat(context.debug()).isTrue();
    }

    @Test
    void takesASpanWithoutADecisionAsSampled() {
        assertThat(extract(TRACE_128 + "-" + SPAN).sampled()).isTrue();
    }

    @Test
    void readsAnAllZeroParentAsNone() {
        assertThat(extract(TRACE_64 + "-" + SPAN + "-1-0000000000000000").parentSpanId())
                .isNull();
    }

    @ParameterizedTest
    @ValueSource(
            strings = {
                "",
                "1",
                "garbage",
                "80F198EE56343BA864FE8B2A57D3EFF7-e457b5a2e4d86bd1-1",
                "80f198ee56343ba864fe8b2a57d3eff7-E457B5A2E4D86BD1-1",
                "80f198ee56343ba8-64fe8b2a57d3eff7-e457b5a2e4d86bd1",
                "64fe8b2a57d3eff-e457b5a2e4d86bd1-1",
                "64fe8b2a57d3eff7-e457b5a2e4d86bd-1",
                "64fe8b2a57d3eff7-e457b5a2e4d86bd1-",
                "64fe8b2a57d3eff7-e457b5a2e4d86bd1-x",
                "64fe8b2a57d3eff7-e457b5a2e4d86bd1-11",
                "64fe8b2a57d3eff7-e457b5a2e4d86bd1-1-",
                "64fe8b2a57d3eff7-e457b5a2e4d86bd1-1-05e3ac9a4f6e3b9",
                "64fe8b2a57d3eff7-e457b5a2e4d86bd1-1-05E3AC9A4F6E3B90",
                // The parent is the fourth field: it cannot stand in for the sampling decision.
                "64fe8b2a57d3eff7-e457b5a2e4d86bd1-05e3ac9a4f6e3b90",
                "0000000000000000-e457b5a2e4d86bd1-1",
                "64fe8b2a57d3eff7-0000000000000000-1",
                "80f198ee56343ba864fe8b2a57d3eff7-e457b5a2e4d86bd1-1-05e3ac9a4f6e3b90-",
            })
    void ignoresAMalformedValue(String value) {
        assertThat(extract(value)).isNull();
    }

    @Test
    void ignoresAnOversizedValue() {
        assertThat(extract(TRACE_128 + "-" + SPAN + "-1-" + PARENT + "0".repeat(4096)))
                .isNull();
    }

    @Test
    void ignoresARepeatedField() {
        HttpHeaders headers = HttpHeaders.of("b3", TRACE_64 + "-" + SPAN + "-1", "b3", TRACE_64 + "-" + SPAN + "-0");

        assertThat(propagation.extract(headers)).isNull();
    }

    @ParameterizedTest
    @ValueSource(strings = {"0", "1", "d"})
    void keepsADecisionSentWithoutIdsForANewRoot(String decision) {
        TraceContext root = propagation.nextSpan(HttpHeaders.of("b3", decision));

        assertThat(root.parentSpanId()).isNull();
        assertThat(root.sampled()).isEqualTo(!decision.equals("0"));
        assertThat(root.debug()).isEqualTo(decision.equals("d"));
        assertThat(root.b3Format).isEqualTo(TraceFormat.B3_SINGLE);
    }

    @Test
    void writesTheDecisionAlwaysAndTheParentWhenThereIsOne() {
        assertThat(B3Single.format(extract(TRACE_128 + "-" + SPAN + "-d-" + PARENT)))
                .isEqualTo(TRACE_128 + "-" + SPAN + "-d-" + PARENT);
        assertThat(B3Single.format(extract(TRACE_64 + "-" + SPAN))).isEqualTo(TRACE_64 + "-" + SPAN + "-1");
        assertThat(B3Single.format(extract(TRACE_64 + "-" + SPAN + "-0"))).isEqualTo(TRACE_64 + "-" + SPAN + "-0");
    }

    private static TraceContext extract(String value) {
        return propagation.extract(HttpHeaders.of("b3", value));
    }
}
