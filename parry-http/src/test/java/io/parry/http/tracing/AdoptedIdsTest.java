package io.parry.http.tracing;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.parry.http.HttpHeaders;
import org.junit.jupiter.api.Test;

class AdoptedIdsTest {
    private static final String TRACE_ID = "4bf92f3577b34da6a3ce929d0e0e4736";
    private static final String SPAN_ID = "00f067aa0ba902b7";

    @Test
    void withIdsReplacesTheIdsAndKeepsTheParentStateAndB3Form() {
        TraceContext server = new TraceContext(1, 2, 3, 4, TraceContext.SAMPLED, "congo=t61", TraceFormat.B3_SINGLE);

        TraceContext adopted = server.withIds(TRACE_ID, SPAN_ID, false);

        assertThat(adopted.traceId()).isEqualTo(TRACE_ID);
        assertThat(adopted.spanId()).isEqualTo(SPAN_ID);
        assertThat(adopted.parentSpanId()).isEqualTo(server.parentSpanId());
        assertThat(adopted.sampled()).isFalse();
        assertThat(adopted.traceState()).isEqualTo("congo=t61");
        assertThat(adopted.b3Format).isEqualTo(TraceFormat.B3_SINGLE);
        assertThat(server.withIds(TRACE_ID, SPAN_ID, true).sampled()).isTrue();
    }

    @Test
    void withIdsOnANewRootGivesARootWithThoseIds() {
        TraceContext adopted = TraceContext.newRoot(true).withIds(TRACE_ID, SPAN_ID, true);

        assertThat(adopted.parentSpanId()).isNull();
        assertThat(TraceParent.format(adopted)).isEqualTo("00-" + TRACE_ID + "-" + SPAN_ID + "-01");
    }

    @Test
    void withIdsRefusesMalformedIds() {
        TraceContext root = TraceContext.newRoot(true);

        assertThatThrownBy(() -> root.withIds(TRACE_ID.toUpperCase(), SPAN_ID, true))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessage("traceId: " + TRACE_ID.toUpperCase() + " (expected: 32 lowercase hex digits)");
        assertThatThrownBy(() -> root.withIds(TRACE_ID, SPAN_ID + "0", true))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageStartingWith("spanId: ");
        assertThatThrownBy(() -> root.withIds("0".repeat(32), SPAN_ID, true))
                .hasMessage("traceId: " + "0".repeat(32) + " (expected: not all zeros)");
        assertThatThrownBy(() -> root.withIds(TRACE_ID, "0".repeat(16), true))
                .hasMessage("spanId: " + "0".repeat(16) + " (expected: not all zeros)");
    }

    @Test
    void removeFieldsDropsEveryFormatAndKeepsTheRest() {
        HttpHeaders headers = HttpHeaders.builder()
                .add("traceparent", "00-" + TRACE_ID + "-" + SPAN_ID + "-01")
                .add("tracestate", "congo=t61")
                .add("b3", TRACE_ID + "-" + SPAN_ID + "-1")
                .add("X-B3-TraceId", TRACE_ID)
                .add("X-B3-SpanId", SPAN_ID)
                .add("X-B3-ParentSpanId", SPAN_ID)
                .add("X-B3-Sampled", "1")
                .add("X-B3-Flags", "1")
                .add("accept", "*/*")
                .build();

        HttpHeaders left = TracePropagation.removeFields(headers.toBuilder()).build();

        assertThat(left.size()).isEqualTo(1);
        assertThat(left.get("accept")).isEqualTo("*/*");
    }
}
