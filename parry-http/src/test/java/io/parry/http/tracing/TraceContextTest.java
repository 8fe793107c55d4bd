package io.parry.http.tracing;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

class TraceContextTest {
    private static final String HEX_32 = "[0-9a-f]{32}";
    private static final String HEX_16 = "[0-9a-f]{16}";

    @Test
    void newRootHasRandomLowercaseIdsAndNoParent() {
        TraceContext first = TraceContext.newRoot(true);
        TraceContext second = TraceContext.newRoot(true);

        assertThat(first.traceId()).matches(HEX_32).isNotEqualTo(second.traceId());
        assertThat(first.spanId()).matches(HEX_16).isNotEqualTo(second.spanId());
        assertThat(first.parentSpanId()).isNull();
        assertThat(first.traceState()).isEmpty();
    }

    @Test
    void newRootTakesTheSamplingDecision() {
        assertThat(TraceContext.newRoot(true).sampled()).isTrue();
        assertThat(TraceContext.newRoot(false).sampled()).isFalse();
    }

    @Test
    void childKeepsTheTraceAndMakesThisSpanItsParent() {
        TraceContext parent = new TraceContext(1, 2, 3, 0, 0, "congo=t61rcWkgMzE", TraceFormat.B3_MULTI);

        TraceContext child = parent.child();

        assertThat(child.traceId()).isEqualTo(parent.traceId());
        assertThat(child.spanId()).matches(HEX_16).isNotEqualTo(parent.spanId());
        assertThat(child.parentSpanId()).isEqualTo(parent.spanId());
        assertThat(child.sampled()).isFalse();
        assertThat(child.traceState()).isEqualTo("congo=t61rcWkgMzE");
        assertThat(child.b3Format).isEqualTo(TraceFormat.B3_MULTI);
    }

    @Test
    void padsA64BitTraceIdToThirtyTwoDigits() {
        TraceContext context = new TraceContext(0, 0xabcL, 0x1L, 0, TraceContext.SAMPLED, "", null);

        assertThat(context.traceId()).isEqualTo("00000000000000000000000000000abc");
        assertThat(context.spanId()).isEqualTo("0000000000000001");
    }

    @Test
    void formatsEachIdOnce() {
        TraceContext context = TraceContext.newRoot(true);

        assertThat(context.traceId()).isSameAs(context.traceId());
        assertThat(context.spanId()).isSameAs(context.spanId());
    }

    @Test
    void equalsComparesIdsFlagsAndTraceState() {
        TraceContext context = new TraceContext(1, 2, 3, 4, TraceContext.SAMPLED, "a=b", null);

        assertThat(context)
                .isEqualTo(new TraceContext(1, 2, 3, 4, TraceContext.SAMPLED, "a=b", TraceFormat.B3_SINGLE))
                .hasSameHashCodeAs(new TraceContext(1, 2, 3, 4, TraceContext.SAMPLED, "a=b", null))
                .isNotEqualTo(new TraceContext(1, 2, 3, 4, 0, "a=b", null))
                .isNotEqualTo(new TraceContext(1, 2, 3, 5, TraceContext.SAMPLED, "a=b", null))
                .isNotEqualTo(new TraceContext(1, 2, 3, 4, TraceContext.SAMPLED, "", null));
        assertThat(context.toString()).contains("traceId=" + context.traceId(), "sampled=true");
    }
}
