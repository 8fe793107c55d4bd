package io.parry.http.tracing;

import static org.assertj.core.api.Assertions.assertThat;

import io.parry.http.HttpHeaders;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

class W3cTraceContextTest {
    private static final String TRACE_ID = "4bf92f3577b34da6a3ce929d0e0e4736";
    private static final String PARENT_ID = "00f067aa0ba902b7";
    private static final String VALID = "00-" + TRACE_ID + "-" + PARENT_ID + "-01";
    private static final TracePropagation propagation = TracePropagation.ofDefault();

    @Test
    void readsTheCallersSpan() {
        TraceContext context = extract("traceparent", VALID);

        assertThat(context.traceId()).isEqualTo(TRACE_ID);
        assertThat(context.spanId()).isEqualTo(PARENT_ID);
        assertThat(context.parentSpanId()).isNull();
        assertThat(context.sampled()).isTrue();
        assertThat(context.traceState()).isEmpty();
    }

    @Test
    void readsTheFieldNameInAnyCase() {
        assertThat(extract("TraceParent", VALID)).isNotNull();
    }

    @ParameterizedTest
    @ValueSource(strings = {"00", "02", "fe"})
    void honoursAnUnsetSampledFlag(String flags) {
        assertThat(extract("traceparent", "00-" + TRACE_ID + "-" + PARENT_ID + "-" + flags)
                        .sampled())
                .isFalse();
    }

    @ParameterizedTest
    @ValueSource(strings = {"01", "09", "ff"})
    void masksTheSampledBitOutOfTheFlags(String flags) {
        assertThat(extract("traceparent", "00-" + TRACE_ID + "-" + PARENT_ID + "-" + flags)
                        .sampled())
                .isTrue();
    }

    @ParameterizedTest
    @ValueSource(
            strings = {
                "",
                "00",
                "garbage",
                // Upper case: the W3C grammar allows lowercase hex only.
                "00-4BF92F3577B34DA6A3CE929D0E0E4736-00f067aa0ba902b7-01",
                "00-4bf92f3577b34da6a3ce929d0e0e4736-00F067AA0BA902B7-01",
                "00-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-0A",
                // All-zero ids.
                "00-00000000000000000000000000000000-00f067aa0ba902b7-01",
                "00-4bf92f3577b34da6a3ce929d0e0e4736-0000000000000000-01",
                // Version ff is forbidden; versions are hex.
                "ff-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-01",
                "0g-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-01",
                // Not hex, wrong separators, wrong lengths.
                "00-4bf92f3577b34da6a3ce929d0e0e473x-00f067aa0ba902b7-01",
                "00_4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-01",
                "00-4bf92f3577b34da6a3ce929d0e0e4736_00f067aa0ba902b7-01",
                "00-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7_01",
                "00-4bf92f3577b34da6a3ce929d0e0e473-00f067aa0ba902b7-01",
                "00-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b-01",
                "00-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-1",
                // Version 00 is exactly 55 characters.
                "00-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-01-",
                "00-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-01-extra",
                // A later version may add fields only after a dash.
                "01-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-01x",
            })
    void ignoresAMalformedField(String value) {
        assertThat(extract("traceparent", value)).isNull();
    }

    @Test
    void readsALaterVersionAsVersion00() {
        TraceContext context = extract("traceparent", "cc-" + TRACE_ID + "-" + PARENT_ID + "-01-what-the-future-adds");

        assertThat(context.traceId()).isEqualTo(TRACE_ID);
        assertThat(context.spanId()).isEqualTo(PARENT_ID);
        assertThat(context.sampled()).isTrue();
        assertThat(extract("traceparent", "cc-" + TRACE_ID + "-" + PARENT_ID + "-01"))
                .isNotNull();
    }

    @Test
    void ignoresAnOversizedField() {
        String oversized = "cc-" + TRACE_ID + "-" + PARENT_ID + "-01-" + "a".repeat(10_000);

        assertThat(extract("traceparent", oversized)).isNull();
    }

    @Test
    void ignoresARepeatedField() {
        HttpHeaders headers =
                HttpHeaders.of("traceparent", VALID, "traceparent", "00-" + TRACE_ID + "-00f067aa0ba902b8-01");

        assertThat(propagation.extract(headers)).isNull();
    }

    @Test
    void keepsTheTraceStateJoiningRepeatedFields() {
        HttpHeaders headers =
                HttpHeaders.of("traceparent", VALID, "tracestate", "rojo=00f067aa0ba902b7", "TraceState", "congo=t61");

        assertThat(propagation.extract(headers).traceState()).isEqualTo("rojo=00f067aa0ba902b7,congo=t61");
    }

    @Test
    void dropsATraceStateOfMoreThan32Members() {
        StringBuilder members = new StringBuilder("k0=v");
        for (int i = 1; i < 33; i++) {
            members.append(", ,k").append(i).append("=v");
        }
        TraceContext context =
                propagation.extract(HttpHeaders.of("traceparent", VALID, "tracestate", members.toString()));

        assertThat(context.traceId()).isEqualTo(TRACE_ID);
        assertThat(context.traceState()).isEmpty();
    }

    @Test
    void keepsATraceStateOf32MembersWithEmptyOnesBetween() {
        StringBuilder members = new StringBuilder("k0=v");
        for (int i = 1; i < 32; i++) {
            members.append(", ,k").append(i).append("=v");
        }

        assertThat(propagation
                        .extract(HttpHeaders.of("traceparent", VALID, "tracestate", members.toString()))
                        .traceState())
                .isEqualTo(members.toString());
    }

    @Test
    void dropsAnOversizedTraceStateButKeepsTheTrace() {
        TraceContext context =
                propagation.extract(HttpHeaders.of("traceparent", VALID, "tracestate", "k=" + "v".repeat(511)));

        assertThat(context.traceId()).isEqualTo(TRACE_ID);
        assertThat(context.traceState()).isEmpty();
    }

    @Test
    void ignoresTheTraceStateWithoutAUsableTraceparent() {
        HttpHeaders headers = HttpHeaders.of("traceparent", "garbage", "tracestate", "congo=t61rcWkgMzE");

        assertThat(propagation.extract(headers)).isNull();
        assertThat(propagation.nextSpan(headers).traceState()).isEmpty();
    }

    @Test
    void writesVersion00WithOnlyTheSampledFlag() {
        TraceContext context = extract("traceparent", "00-" + TRACE_ID + "-" + PARENT_ID + "-ff");

        assertThat(TraceParent.format(context)).isEqualTo(VALID);
        assertThat(TraceParent.format(extract("traceparent", "00-" + TRACE_ID + "-" + PARENT_ID + "-fe")))
                .endsWith("-00");
    }

    private static TraceContext extract(String name, String value) {
        return propagation.extract(HttpHeaders.of(name, value));
    }
}
