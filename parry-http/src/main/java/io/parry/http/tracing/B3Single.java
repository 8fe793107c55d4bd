package io.parry.http.tracing;

/**
 * The B3 single field: {@code b3: {traceId}-{spanId}-{sampling}-{parentSpanId}}, the last two optional
 * and positional, or a sampling decision alone ({@code b3: 0}). Ids are lowercase hex, the trace id 16
 * or 32 digits; sampling is {@code 1}, {@code 0} or {@code d} (debug, which implies sampled).
 */
final class B3Single {
    static final String NAME = "b3";
    /** A 128-bit trace id, span id, sampling and parent id with their dashes. */
    static final int MAX_LENGTH = 32 + 1 + 16 + 1 + 1 + 1 + 16;
    /** Not a sampling decision, or none. */
    static final int NO_DECISION = -1;

    private B3Single() {}

    /**
     * The caller's span in the value, or {@code null} when it is malformed or only a sampling
     * decision. Without a decision the span is taken as sampled, as Parry samples the traces it
     * starts.
     */
    static TraceContext parse(String value, TraceFormat b3Format) {
        int length = value.length();
        if (length > MAX_LENGTH || length < 16 + 1 + 16) {
            return null;
        }
        int traceLength = value.charAt(16) == '-' ? 16 : value.charAt(32) == '-' ? 32 : 0;
        int spanAt = traceLength + 1;
        if (traceLength == 0 || length < spanAt + 16) {
            return null;
        }
        long trace1 = traceLength == 32 ? Hex.parse8(value, 0) : 0;
        long trace2 = traceLength == 32 ? Hex.parse8(value, 8) : 0;
        long trace3 = Hex.parse8(value, traceLength - 16);
        long trace4 = Hex.parse8(value, traceLength - 8);
        long span1 = Hex.parse8(value, spanAt);
        long span2 = Hex.parse8(value, spanAt + 8);
        int pos = spanAt + 16;
        int flags = TraceContext.SAMPLED;
        long parent1 = 0;
        long parent2 = 0;
        if (pos < length) {
            flags = pos + 2 <= length && value.charAt(pos) == '-' ? sampling(value.charAt(pos + 1)) : NO_DECISION;
            pos += 2;
            if (pos < length) {
                if (value.charAt(pos) != '-' || length != pos + 17) {
                    return null;
                }
                parent1 = Hex.parse8(value, pos + 1);
                parent2 = Hex.parse8(value, pos + 9);
            }
        }
        if ((trace1 | trace2 | trace3 | trace4 | span1 | span2 | parent1 | parent2 | flags) < 0) {
            return null;
        }
        long traceHigh = trace1 << 32 | trace2;
        long traceLow = trace3 << 32 | trace4;
        long span = span1 << 32 | span2;
        if ((traceHigh | traceLow) == 0 || span == 0) {
            return null;
        }
        // An all-zero parent is read as none: the span is still usable.
        return new TraceContext(traceHigh, traceLow, span, parent1 << 32 | parent2, flags, "", b3Format);
    }

    /** The flags of a value that is only a sampling decision, or {@link #NO_DECISION}. */
    static int samplingOnly(String value) {
        return value.length() == 1 ? sampling(value.charAt(0)) : NO_DECISION;
    }

    /** The value for the span: always with its sampling decision, and with its parent when it has one. */
    static String format(TraceContext context) {
        boolean wide = context.traceIdHigh != 0;
        int traceLength = wide ? 32 : 16;
        boolean hasParent = context.parentSpanId != 0;
        byte[] out = new byte[traceLength + 1 + 16 + 2 + (hasParent ? 17 : 0)];
        if (wide) {
            Hex.write(context.traceIdHigh, out, 0);
        }
        Hex.write(context.traceIdLow, out, traceLength - 16);
        out[traceLength] = '-';
        Hex.write(context.spanId, out, traceLength + 1);
        int pos = traceLength + 17;
        out[pos] = '-';
        out[pos + 1] = (byte) (context.debug() ? 'd' : context.sampled() ? '1' : '0');
        if (hasParent) {
            out[pos + 2] = '-';
            Hex.write(context.parentSpanId, out, pos + 3);
        }
        return Hex.ascii(out);
    }

    private static int sampling(char c) {
        switch (c) {
            case '1':
                return TraceContext.SAMPLED;
            case '0':
                return 0;
            case 'd':
                return TraceContext.SAMPLED | TraceContext.DEBUG;
            default:
                return NO_DECISION;
        }
    }
}
