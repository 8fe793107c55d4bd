package io.parry.http.tracing;

import java.nio.charset.StandardCharsets;
import java.util.Arrays;

/**
 * Lowercase hexadecimal, the only case W3C Trace Context and B3 allow for ids. By hand rather than
 * {@link Long#parseUnsignedLong(String, int)}: no exception for bad input, no substring, no upper case.
 */
final class Hex {
    private static final byte[] DIGITS = "0123456789abcdef".getBytes(StandardCharsets.US_ASCII);
    private static final byte[] VALUES = new byte[128];

    static {
        Arrays.fill(VALUES, (byte) -1);
        for (int i = 0; i < DIGITS.length; i++) {
            VALUES[DIGITS[i]] = (byte) i;
        }
    }

    private Hex() {}

    /** The value of a lowercase hex digit, or -1. */
    static int digit(char c) {
        return c < 128 ? VALUES[c] : -1;
    }

    /**
     * The eight lowercase hex digits at {@code from} as an unsigned value, or -1 when one is not such
     * a digit: callers combine the halves of an id and test them all for a sign once.
     */
    static long parse8(String s, int from) {
        long value = 0;
        for (int i = from; i < from + 8; i++) {
            int digit = digit(s.charAt(i));
            if (digit < 0) {
                return -1;
            }
            value = value << 4 | digit;
        }
        return value;
    }

    /** Writes the value as 16 lowercase hex digits at {@code at}. */
    static void write(long value, byte[] out, int at) {
        long rest = value;
        for (int i = at + 15; i >= at; i--) {
            out[i] = DIGITS[(int) rest & 0xf];
            rest >>>= 4;
        }
    }

    /** The value as 16 lowercase hex digits. */
    static String toHex(long value) {
        byte[] out = new byte[16];
        write(value, out, 0);
        return ascii(out);
    }

    /** The 128-bit value as 32 lowercase hex digits. */
    static String toHex(long high, long low) {
        byte[] out = new byte[32];
        write(high, out, 0);
        write(low, out, 16);
        return ascii(out);
    }

    static String ascii(byte[] text) {
        return new String(text, StandardCharsets.ISO_8859_1);
    }
}
