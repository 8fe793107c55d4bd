package io.parry.http.internal;

import java.util.Arrays;

/**
 * Parses numeric IPv4 and IPv6 addresses into their bytes without asking DNS, which the JDK's
 * {@code InetAddress.getByName} would do for anything that is not a literal.
 */
public final class AddressLiteral {
    private AddressLiteral() {}

    /**
     * The bytes of a numeric address such as {@code 10.1.2.3}, {@code ::1} or {@code [::1]} (4 for IPv4,
     * 16 for IPv6, IPv4-mapped IPv6 kept as 16), or {@code null} if the text is not one. A zone such as
     * {@code %eth0} is refused: no remote host can name a zone of ours.
     */
    public static byte[] parse(String text) {
        String address = text;
        if (address.length() > 2 && address.startsWith("[") && address.endsWith("]")) {
            address = address.substring(1, address.length() - 1);
        }
        return address.indexOf(':') >= 0 ? parseIpv6(address) : parseIpv4(address);
    }

    /** Whether 16 address bytes are an IPv4-mapped IPv6 address ({@code ::ffff:a.b.c.d}). */
    public static boolean isIpv4Mapped(byte[] address) {
        if (address.length != 16) {
            return false;
        }
        for (int i = 0; i < 10; i++) {
            if (address[i] != 0) {
                return false;
            }
        }
        return address[10] == (byte) 0xff && address[11] == (byte) 0xff;
    }

    /**
     * A decimal number of one to three digits in {@code text[from, to)}, or -1 if it is not one.
     */
    public static int parseDecimal(String text, int from, int to) {
        if (to - from < 1 || to - from > 3) {
            return -1;
        }
        int value = 0;
        for (int i = from; i < to; i++) {
            char c = text.charAt(i);
            if (c < '0' || c > '9') {
                return -1;
            }
            value = value * 10 + (c - '0');
        }
        return value;
    }

    /** Dotted-quad only; a part with a leading zero is refused, as some parsers read it as octal. */
    static byte[] parseIpv4(String text) {
        byte[] address = new byte[4];
        int start = 0;
        for (int part = 0; part < 4; part++) {
            int end = text.indexOf('.', start);
            if (end < 0) {
                end = text.length();
            }
            if ((part < 3) == (end == text.length())) {
                return null;
            }
            if (end - start > 1 && text.charAt(start) == '0') {
                return null;
            }
            int value = parseDecimal(text, start, end);
            if (value < 0 || value > 255) {
                return null;
            }
            address[part] = (byte) value;
            start = end + 1;
        }
        return address;
    }

    /** RFC 4291, section 2.2: eight groups of hex, one {@code ::} for a run of zeros, an IPv4 tail. */
    static byte[] parseIpv6(String text) {
        byte[] address = new byte[16];
        int length = text.length();
        int gap = -1;
        int filled = 0;
        int i = 0;
        if (text.startsWith("::")) {
            gap = 0;
            i = 2;
        } else if (text.startsWith(":")) {
            return null;
        }
        while (i < length) {
            if (filled == 16) {
                return null;
            }
            int end = i;
            while (end < length && text.charAt(end) != ':' && text.charAt(end) != '.') {
                end++;
            }
            if (end < length && text.charAt(end) == '.') {
                byte[] tail = filled <= 12 ? parseIpv4(text.substring(i)) : null;
                if (tail == null) {
                    return null;
                }
                System.arraycopy(tail, 0, address, filled, 4);
                filled += 4;
                break;
            }
            int group = parseHexGroup(text, i, end);
            if (group < 0) {
                return null;
            }
            address[filled++] = (byte) (group >>> 8);
            address[filled++] = (byte) group;
            if (end == length) {
                break;
            }
            if (end + 1 < length && text.charAt(end + 1) == ':') {
                if (gap >= 0) {
                    return null;
                }
                gap = filled;
                i = end + 2;
            } else if (end + 1 == length) {
                return null;
            } else {
                i = end + 1;
            }
        }
        if (gap < 0) {
            return filled == 16 ? address : null;
        }
        if (filled == 16) {
            return null;
        }
        int moved = filled - gap;
        System.arraycopy(address, gap, address, 16 - moved, moved);
        Arrays.fill(address, gap, 16 - moved, (byte) 0);
        return address;
    }

    private static int parseHexGroup(String text, int from, int to) {
        if (to - from < 1 || to - from > 4) {
            return -1;
        }
        int value = 0;
        for (int i = from; i < to; i++) {
            int digit = hexValue(text.charAt(i));
            if (digit < 0) {
                return -1;
            }
            value = value << 4 | digit;
        }
        return value;
    }

    private static int hexValue(char c) {
        if (c >= '0' && c <= '9') {
            return c - '0';
        }
        if (c >= 'a' && c <= 'f') {
            return c - 'a' + 10;
        }
        return c >= 'A' && c <= 'F' ? c - 'A' + 10 : -1;
    }
}
