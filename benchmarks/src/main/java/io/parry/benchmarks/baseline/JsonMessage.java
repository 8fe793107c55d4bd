package io.parry.benchmarks.baseline;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.ByteBufUtil;
import java.nio.charset.StandardCharsets;

/**
 * Writes {@code {"message":"..."}} as UTF-8 JSON, escaping the string per RFC 8259 section 7.
 *
 * <p>Hand-written so the baseline has no JSON library on its path: it measures what the bytes cost, not a
 * library's object mapping.
 */
final class JsonMessage {
    private static final byte[] HEX = "0123456789abcdef".getBytes(StandardCharsets.US_ASCII);

    private JsonMessage() {}

    /** Appends the JSON object {@code {"message":message}} to {@code out}. */
    static void write(ByteBuf out, String message) {
        out.writeCharSequence("{\"message\":\"", StandardCharsets.US_ASCII);
        writeEscaped(out, message);
        out.writeByte('"').writeByte('}');
    }

    private static void writeEscaped(ByteBuf out, String value) {
        int length = value.length();
        int i = 0;
        while (i < length) {
            char c = value.charAt(i);
            if (c >= 0x80) {
                int end = nextAscii(value, i);
                ByteBufUtil.writeUtf8(out, value, i, end);
                i = end;
            } else {
                writeAscii(out, c);
                i++;
            }
        }
    }

    /** Returns the index of the first ASCII character at or after {@code from}, keeping surrogate pairs together. */
    private static int nextAscii(String value, int from) {
        int i = from;
        while (i < value.length() && value.charAt(i) >= 0x80) {
            i++;
        }
        return i;
    }

    private static void writeAscii(ByteBuf out, char c) {
        if (c == '"' || c == '\\') {
            out.writeByte('\\').writeByte(c);
        } else if (c < 0x20) {
            out.writeByte('\\').writeByte('u').writeByte('0').writeByte('0');
            out.writeByte(HEX[c >> 4]).writeByte(HEX[c & 0xF]);
        } else {
            out.writeByte(c);
        }
    }
}
