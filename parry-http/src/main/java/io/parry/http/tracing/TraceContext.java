package io.parry.http.tracing;

import static java.util.Objects.requireNonNull;

import java.util.concurrent.ThreadLocalRandom;

/**
 * One span's place in a distributed trace: the 128-bit id shared by every span of the trace, this
 * span's 64-bit id, its parent's span id, whether the trace is sampled, and the trace's W3C
 * {@code tracestate}. {@link TracePropagation} reads it from and writes it to header fields.
 *
 * <pre>{@code
 * TraceContext root = TraceContext.newRoot(true);
 * TraceContext call = root.child(); // the same trace, a new span id, root's span as the parent
 * }</pre>
 *
 * <p>Immutable and thread-safe. Ids are numbers; their hex strings are made on first use and kept.
 */
public final class TraceContext {
    static final int SAMPLED = 1;
    static final int DEBUG = 2;

    final long traceIdHigh;
    final long traceIdLow;
    final long spanId;
    /** 0 for a root span. */
    final long parentSpanId;

    final int flags;
    final String traceState;
    /** The B3 form the trace arrived in, kept so calls onward can speak it too; null when none did. */
    final TraceFormat b3Format;
    // Racy caches: every thread computes the same immutable string, so no lock or volatile is needed.
    private String traceIdText;
    private String spanIdText;

    TraceContext(
            long traceIdHigh,
            long traceIdLow,
            long spanId,
            long parentSpanId,
            int flags,
            String traceState,
            TraceFormat b3Format) {
        this.traceIdHigh = traceIdHigh;
        this.traceIdLow = traceIdLow;
        this.spanId = spanId;
        this.parentSpanId = parentSpanId;
        this.flags = flags;
        this.traceState = traceState;
        this.b3Format = b3Format;
    }

    /**
     * A new trace: random trace and span ids, no parent, no {@code tracestate}.
     *
     * @param sampled whether the trace is recorded, the decision passed on to every later span
     */
    public static TraceContext newRoot(boolean sampled) {
        return root(sampled ? SAMPLED : 0, null);
    }

    static TraceContext root(int flags, TraceFormat b3Format) {
        ThreadLocalRandom random = ThreadLocalRandom.current();
        long high;
        long low;
        do {
            high = random.nextLong();
            low = random.nextLong();
        } while ((high | low) == 0);
        return new TraceContext(high, low, nonZero(random), 0, flags, "", b3Format);
    }

    /**
     * A span within this one: the same trace, sampling decision and {@code tracestate}, a new random
     * span id, and this span as the parent. A server calls it on the context a request brought; a
     * client on the server's span for each call it makes.
     */
    public TraceContext child() {
        return new TraceContext(
                traceIdHigh, traceIdLow, nonZero(ThreadLocalRandom.current()), spanId, flags, traceState, b3Format);
    }

    /**
     * This span as another tracing system numbers it: these trace and span ids and this sampling
     * decision, with this span's parent, {@code tracestate} and B3 form. For a bridge whose spans
     * choose their own ids (OpenTelemetry's), so that the ids Parry logs and propagates are the ones
     * it records.
     *
     * @param traceId 32 lowercase hex digits, not all zero
     * @param spanId 16 lowercase hex digits, not all zero
     * @throws IllegalArgumentException if an id is malformed
     */
    public TraceContext withIds(String traceId, String spanId, boolean sampled) {
        requireNonNull(traceId, "traceId");
        requireNonNull(spanId, "spanId");
        long high = hexId(traceId, 32, 0);
        long low = hexId(traceId, 32, 16);
        long span = hexId(spanId, 16, 0);
        if ((high | low) == 0) {
            throw new IllegalArgumentException("traceId: " + traceId + " (expected: not all zeros)");
        }
        if (span == 0) {
            throw new IllegalArgumentException("spanId: " + spanId + " (expected: not all zeros)");
        }
        int newFlags = sampled ? flags | SAMPLED : flags & ~SAMPLED;
        return new TraceContext(high, low, span, parentSpanId, newFlags, traceState, b3Format);
    }

    /** The 16 hex digits of {@code id} at {@code from}, for an id that must have {@code length} of them. */
    private static long hexId(String id, int length, int from) {
        long high = id.length() == length ? Hex.parse8(id, from) : -1;
        long low = high < 0 ? -1 : Hex.parse8(id, from + 8);
        if (low < 0) {
            String name = length == 32 ? "traceId" : "spanId";
            throw new IllegalArgumentException(name + ": " + id + " (expected: " + length + " lowercase hex digits)");
        }
        return high << 32 | low;
    }

    private static long nonZero(ThreadLocalRandom random) {
        long id;
        do {
            id = random.nextLong();
        } while (id == 0);
        return id;
    }

    /**
     * The trace id: 32 lowercase hex digits. A 64-bit B3 trace id is padded on the left with zeros,
     * as W3C Trace Context asks.
     */
    public String traceId() {
        String text = traceIdText;
        if (text == null) {
            text = Hex.toHex(traceIdHigh, traceIdLow);
            traceIdText = text;
        }
        return text;
    }

    /** This span's id: 16 lowercase hex digits. */
    public String spanId() {
        String text = spanIdText;
        if (text == null) {
            text = Hex.toHex(spanId);
            spanIdText = text;
        }
        return text;
    }

    /** The parent span's id as 16 lowercase hex digits, or {@code null} for the root span of a trace. */
    public String parentSpanId() {
        return parentSpanId == 0 ? null : Hex.toHex(parentSpanId);
    }

    /** Whether the trace is sampled: a recommendation to record it, passed on unchanged to every child. */
    public boolean sampled() {
        return (flags & SAMPLED) != 0;
    }

    /**
     * The W3C {@code tracestate} that arrived with the trace, passed on unchanged; empty when none
     * did or it was longer than 512 characters or had more than 32 members.
     */
    public String traceState() {
        return traceState;
    }

    /** Whether B3 asked for this trace to be recorded whatever the sampling policy ({@code X-B3-Flags: 1}). */
    boolean debug() {
        return (flags & DEBUG) != 0;
    }

    @Override
    public boolean equals(Object o) {
        if (!(o instanceof TraceContext)) {
            return false;
        }
        TraceContext other = (TraceContext) o;
        return traceIdHigh == other.traceIdHigh
                && traceIdLow == other.traceIdLow
                && spanId == other.spanId
                && parentSpanId == other.parentSpanId
                && flags == other.flags
                && traceState.equals(other.traceState);
    }

    @Override
    public int hashCode() {
        int hash = Long.hashCode(traceIdHigh);
        hash = 31 * hash + Long.hashCode(traceIdLow);
        hash = 31 * hash + Long.hashCode(spanId);
        hash = 31 * hash + Long.hashCode(parentSpanId);
        return 31 * hash + flags;
    }

    @Override
    public String toString() {
        return "TraceContext(traceId=" + traceId() + ", spanId=" + spanId() + ", parentSpanId=" + parentSpanId()
                + ", sampled=" + sampled() + ")";
    }
}
