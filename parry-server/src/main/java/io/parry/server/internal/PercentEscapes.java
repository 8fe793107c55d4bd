package io.parry.server.internal;

/** Reads percent-escapes ({@code %XX}, RFC 3986, section 2.1) in place, without decoding into a new string. */
final class PercentEscapes {
    private PercentEscapes() {}

    /** The value of an ASCII hex digit, or -1. */
    static int hexValue(char c) {
        if (c >= '0' && c <= '9') {
            return c - '0';
        }
        if (c >= 'a' && c <= 'f') {
            return c - 'a' + 10;
        }
        if (c >= 'A' && c <= 'F') {
            return c - 'A' + 10;
        }
        return -1;
    }

    /** The byte escaped at {@code s[i]}, which holds {@code %}, or -1 if two hex digits do not follow before {@code to}. */
    static int byteAt(String s, int i, int to) {
        if (i + 2 >= to) {
            return -1;
        }
        int high = hexValue(s.charAt(i + 1));
        int low = hexValue(s.charAt(i + 2));
        return high < 0 || low < 0 ? -1 : high << 4 | low;
    }

    /**
     * Where the UTF-8 sequence whose first byte, {@code lead}, is escaped at {@code s[i]} ends: the index
     * after its last escape; -1 when it is not well-formed (RFC 3629, section 4: no overlong form such as
     * {@code %C0%AF} for {@code /}, no surrogate, nothing above U+10FFFF, no missing continuation byte).
     */
    static int utf8End(String s, int i, int to, int lead) {
        int count;
        int min = 0x80;
        int max = 0xBF;
        if (lead >= 0xC2 && lead <= 0xDF) {
            count = 1;
        } else if (lead == 0xE0) {
            count = 2;
            min = 0xA0;
        } else if (lead == 0xED) {
            count = 2;
            max = 0x9F;
        } else if (lead >= 0xE1 && lead <= 0xEF) {
            count = 2;
        } else if (lead == 0xF0) {
            count = 3;
            min = 0x90;
        } else if (lead >= 0xF1 && lead <= 0xF3) {
            count = 3;
        } else if (lead == 0xF4) {
            count = 3;
            max = 0x8F;
        } else {
            return -1;
        }
        int at = i + 3;
        for (int k = 0; k < count; k++, at += 3) {
            if (at >= to || s.charAt(at) != '%') {
                return -1;
            }
            int next = byteAt(s, at, to);
            if (next < min || next > max) {
                return -1;
            }
            min = 0x80;
            max = 0xBF;
        }
        return at;
    }

    /** Whether the byte is a slash or a backslash, which an upstream may read as a separator once decoded. */
    static boolean isSlash(int value) {
        return value == '/' || value == '\\';
    }

    /** RFC 3986, section 2.3: the characters that mean the same escaped or not. */
    static boolean isUnreserved(int c) {
        return (c >= 'a' && c <= 'z')
                || (c >= 'A' && c <= 'Z')
                || (c >= '0' && c <= '9')
                || c == '-'
                || c == '.'
                || c == '_'
                || c == '~';
    }
}
