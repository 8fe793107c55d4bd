package io.parry.http.tracing;

/**
 * The W3C {@code traceparent} field: {@code {version}-{traceId}-{parentId}-{flags}}, for example
 * {@code 00-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-01} (W3C Trace Context, "Traceparent
 * Header").
 */
final class TraceParent {
    static final String NAME = "traceparent";
    /** The length of a version 00 value. */
    static final int LENGTH = 55;
    /** Later versions may append fields; a value longer than this is taken for abuse and not parsed. */
    static final int MAX_LENGTH = 512;

    private TraceParent() {}

    /**
     * The caller's span in the value, or {@code null} when the value is malformed: wrong length or
     * separators, a digit that is not lowercase hex, version {@code ff}, or an all-zero id. A version
     * after 00 is read as 00 when its first 55 characters have that form and are the whole value or
     * followed by a dash ("Versioning of traceparent").
     */
    static TraceContext parse(String value, String traceState, TraceFormat b3Format) {
        int length = value.length();
        if (length < LENGTH || length > MAX_LENGTH) {
            return null;
        }
        int high = Hex.digit(value.charAt(0));
        int low = Hex.digit(value.charAt(1));
        if (high < 0 || low < 0 || (high == 0xf && low == 0xf)) {
            return null;
        }
        boolean version00 = high == 0 && low == 0;
        if (version00 ? length != LENGTH : length > LENGTH && value.charAt(LENGTH) != '-') {
            return null;
        }
        if (value.charAt(2) != '-' || value.charAt(35) != '-' || value.charAt(52) != '-') {
            return null;
        }
        long trace1 = Hex.parse8(value, 3);
        long trace2 = Hex.parse8(value, 11);
        long trace3 = Hex.parse8(value, 19);
        long trace4 = Hex.parse8(value, 27);
        long parent1 = Hex.parse8(value, 36);
        long parent2 = Hex.parse8(value, 44);
        int flagsHigh = Hex.digit(value.charAt(53));
        int flagsLow = Hex.digit(value.charAt(54));
        if ((trace1 | trace2 | trace3 | trace4 | parent1 | parent2 | flagsHigh | flagsLow) < 0) {
            return null;
        }
        long traceHigh = trace1 << 32 | trace2;
        long traceLow = trace3 << 32 | trace4;
        long parent = parent1 << 32 | parent2;
        if ((traceHigh | traceLow) == 0 || parent == 0) {
            return null;
        }
        int flags = (flagsLow & 1) != 0 ? TraceContext.SAMPLED : 0;
        return new TraceContext(traceHigh, traceLow, parent, 0, flags, traceState, b3Format);
    }

    /** The version 00 value for the span; of the flags only {@code sampled} is defined, the rest stay zero. */
    static String format(TraceContext context) {
        byte[] out = new byte[LENGTH];
        out[0] = '0';
        out[1] = '0';
        out[2] = '-';
        Hex.write(context.traceIdHigh, out, 3);
        Hex.write(context.traceIdLow, out, 19);
        out[35] = '-';
        Hex.write(context.spanId, out, 36);
        out[52] = '-';
        out[53] = '0';
        out[54] = (byte) (context.sampled() ? '1' : '0');
        return Hex.ascii(out);
    }
}
