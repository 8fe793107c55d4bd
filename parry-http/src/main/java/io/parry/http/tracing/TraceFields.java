package io.parry.http.tracing;

import io.parry.http.HttpHeaders;
import io.parry.http.spi.AsciiCase;

/**
 * The trace fields of one header block, found in a single pass over it: a request without any costs
 * one length check per field and no allocation. Names compare case-insensitively.
 */
final class TraceFields {
    static final String TRACE_STATE = "tracestate";
    /** The longest {@code tracestate} kept; W3C asks that at least 512 characters be passed on. */
    static final int MAX_TRACE_STATE = 512;
    /** W3C allows at most 32 {@code tracestate} members; a longer list is dropped whole. */
    static final int MAX_TRACE_STATE_MEMBERS = 32;

    /** Every field name any format uses, lowercase. */
    static final String[] NAMES = {
        TraceParent.NAME,
        TRACE_STATE,
        B3Single.NAME,
        "x-b3-traceid",
        "x-b3-spanid",
        "x-b3-parentspanid",
        "x-b3-sampled",
        "x-b3-flags"
    };

    private static final int NONE = -1;
    private static final int TRACE_PARENT = 0;
    private static final int STATE = 1;
    private static final int B3 = 2;
    private static final int B3_TRACE_ID = 3;
    private static final int B3_SPAN_ID = 4;
    private static final int B3_PARENT_SPAN_ID = 5;
    private static final int B3_SAMPLED = 6;
    private static final int B3_FLAGS = 7;

    /** By kind; {@code tracestate} fields are joined with commas, as RFC 9110 allows for a list. */
    final String[] values = new String[NAMES.length];
    /** A bit per kind that arrived more than once, which makes a single-valued field unusable. */
    int repeated;

    private TraceFields() {}

    /** The trace fields in the headers, or {@code null} when there are none. */
    static TraceFields scan(HttpHeaders headers) {
        TraceFields found = null;
        for (int i = 0, size = headers.size(); i < size; i++) {
            int kind = kind(headers.name(i));
            if (kind != NONE) {
                if (found == null) {
                    found = new TraceFields();
                }
                found.add(kind, headers.value(i));
            }
        }
        return found;
    }

    /** Whether any trace field is in the headers. */
    static boolean any(HttpHeaders headers) {
        for (int i = 0, size = headers.size(); i < size; i++) {
            if (kind(headers.name(i)) != NONE) {
                return true;
            }
        }
        return false;
    }

    private void add(int kind, String value) {
        String before = values[kind];
        if (before == null) {
            values[kind] = value;
        } else if (kind == STATE) {
            values[kind] = before + "," + value;
        } else {
            repeated |= 1 << kind;
        }
    }

    /** A field that arrived exactly once, or {@code null}. */
    private String single(int kind) {
        return (repeated & 1 << kind) == 0 ? values[kind] : null;
    }

    String traceParent() {
        return single(TRACE_PARENT);
    }

    String b3() {
        return single(B3);
    }

    String b3TraceId() {
        return single(B3_TRACE_ID);
    }

    String b3SpanId() {
        return single(B3_SPAN_ID);
    }

    String b3ParentSpanId() {
        return single(B3_PARENT_SPAN_ID);
    }

    String b3Sampled() {
        return single(B3_SAMPLED);
    }

    String b3Flags() {
        return single(B3_FLAGS);
    }

    /** The B3 form present, whether or not it parses, so calls onward can answer in it; or null. */
    TraceFormat b3Format() {
        if (values[B3] != null) {
            return TraceFormat.B3_SINGLE;
        }
        boolean multi = values[B3_TRACE_ID] != null || values[B3_SAMPLED] != null || values[B3_FLAGS] != null;
        return multi ? TraceFormat.B3_MULTI : null;
    }

    /**
     * The {@code tracestate} to pass on: the joined fields, or empty when there were none or they
     * exceed {@value #MAX_TRACE_STATE} characters or {@value #MAX_TRACE_STATE_MEMBERS} members.
     * Members are otherwise opaque: HTTP header validation has already kept control characters out.
     */
    String traceState() {
        String value = values[STATE];
        if (value == null || value.length() > MAX_TRACE_STATE) {
            return "";
        }
        int members = 0;
        boolean inMember = false;
        for (int i = 0; i < value.length(); i++) {
            char c = value.charAt(i);
            if (c == ',') {
                inMember = false;
            } else if (c != ' ' && c != '\t' && !inMember) {
                inMember = true;
                members++;
            }
        }
        return members == 0 || members > MAX_TRACE_STATE_MEMBERS ? "" : value;
    }

    private static int kind(String name) {
        switch (name.length()) {
            case 2:
                return is(name, B3);
            case 10:
                return is(name, STATE) != NONE ? STATE : is(name, B3_FLAGS);
            case 11:
                return is(name, TRACE_PARENT) != NONE ? TRACE_PARENT : is(name, B3_SPAN_ID);
            case 12:
                return is(name, B3_TRACE_ID) != NONE ? B3_TRACE_ID : is(name, B3_SAMPLED);
            case 17:
                return is(name, B3_PARENT_SPAN_ID);
            default:
                return NONE;
        }
    }

    private static int is(String name, int kind) {
        return AsciiCase.equalsIgnoreCase(name, NAMES[kind]) ? kind : NONE;
    }
}
