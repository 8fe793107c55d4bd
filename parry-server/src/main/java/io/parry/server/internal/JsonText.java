package io.parry.server.internal;

/**
 * Writes the few JSON values Parry's own small documents need (access log lines, health reports)
 * without a JSON library, which {@code parry-server} does not depend on.
 */
public final class JsonText {
    private static final char[] HEX = "0123456789abcdef".toCharArray();

    private JsonText() {}

    /** Appends {@code value} as a JSON string (RFC 8259, section 7), or {@code null}. */
    public static StringBuilder appendString(StringBuilder out, String value) {
        if (value == null) {
            return out.append("null");
        }
        out.append('"');
        int clean = cleanPrefix(value);
        if (clean == value.length()) {
            return out.append(value).append('"'); // The usual case: one bulk copy.
        }
        out.append(value, 0, clean);
        for (int i = clean; i < value.length(); i++) {
            char c = value.charAt(i);
            switch (c) {
                case '"':
                    out.append("\\\"");
                    break;
                case '\\':
                    out.append("\\\\");
                    break;
                case '\n':
                    out.append("\\n");
                    break;
                case '\r':
                    out.append("\\r");
                    break;
                case '\t':
                    out.append("\\t");
                    break;
                case '\b':
                    out.append("\\b");
                    break;
                case '\f':
                    out.append("\\f");
                    break;
                default:
                    // DEL and the JavaScript line separators too: log viewers render them badly.
                    if (c < 0x20 || c == 0x7f || c == 0x2028 || c == 0x2029) {
                        appendEscape(out, c);
                    } else {
                        out.append(c);
                    }
            }
        }
        return out.append('"');
    }

    /** The length of the longest prefix of {@code value} that needs no escape. */
    private static int cleanPrefix(String value) {
        for (int i = 0; i < value.length(); i++) {
            char c = value.charAt(i);
            if (c < 0x20 || c == '"' || c == '\\' || c == 0x7f || c == 0x2028 || c == 0x2029) {
                return i;
            }
        }
        return value.length();
    }

    private static void appendEscape(StringBuilder out, char c) {
        out.append("\\u")
                .append(HEX[(c >> 12) & 0xf])
                .append(HEX[(c >> 8) & 0xf])
                .append(HEX[(c >> 4) & 0xf])
                .append(HEX[c & 0xf]);
    }

    /** Appends nanoseconds as milliseconds with three decimals, for example {@code 12.345}. */
    public static StringBuilder appendMillis(StringBuilder out, long nanos) {
        long micros = Math.max(0, nanos) / 1_000;
        long fraction = micros % 1_000;
        out.append(micros / 1_000).append('.');
        if (fraction < 100) {
            out.append('0');
        }
        if (fraction < 10) {
            out.append('0');
        }
        return out.append(fraction);
    }
}
