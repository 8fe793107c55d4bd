package io.parry.proxy.internal;

import java.net.InetAddress;
import java.util.Arrays;
import java.util.List;

/**
 * A set of IPv4 and IPv6 addresses and CIDR blocks, parsed once from text and matched without
 * allocation beyond the address bytes. Parsing accepts only numeric addresses, so it never asks DNS.
 * IPv4-mapped IPv6 blocks ({@code ::ffff:10.0.0.0/104}) match IPv4 peers, as the JDK presents such
 * peers as IPv4 addresses. Immutable and thread-safe.
 */
public final class TrustedProxies {
    private static final TrustedProxies NONE = new TrustedProxies(new byte[0][], new int[0], List.of());
    private static final String EXPECTED =
            " (expected: an IPv4 or IPv6 address, or a CIDR block such as 10.0.0.0/8 or 2001:db8::/32)";

    private final byte[][] networks;
    private final int[] prefixLengths;
    private final List<String> entries;

    private TrustedProxies(byte[][] networks, int[] prefixLengths, List<String> entries) {
        this.networks = networks;
        this.prefixLengths = prefixLengths;
        this.entries = entries;
    }

    /** An empty set: no peer is trusted. */
    public static TrustedProxies none() {
        return NONE;
    }

    /**
     * Parses addresses such as {@code 10.1.2.3}, {@code ::1} or {@code [::1]}, and blocks such as
     * {@code 10.0.0.0/8} or {@code 2001:db8::/32}.
     *
     * @throws IllegalArgumentException naming the first entry that is not such an address or block,
     *     or a block with bits set after its prefix length
     */
    public static TrustedProxies parse(List<String> entries) {
        List<String> copy = List.copyOf(entries);
        if (copy.isEmpty()) {
            return NONE;
        }
        byte[][] networks = new byte[copy.size()][];
        int[] prefixLengths = new int[copy.size()];
        for (int i = 0; i < copy.size(); i++) {
            parseEntry(copy.get(i), networks, prefixLengths, i);
        }
        return new TrustedProxies(networks, prefixLengths, copy);
    }

    /** Whether the address lies in one of the blocks; {@code false} for {@code null}. */
    public boolean contains(InetAddress address) {
        if (address == null || networks.length == 0) {
            return false;
        }
        byte[] bytes = address.getAddress();
        for (int i = 0; i < networks.length; i++) {
            if (matches(networks[i], prefixLengths[i], bytes)) {
                return true;
            }
        }
        return false;
    }

    /** Whether the set is empty. */
    public boolean isEmpty() {
        return networks.length == 0;
    }

    /** The entries as they were given. */
    public List<String> entries() {
        return entries;
    }

    private static boolean matches(byte[] network, int prefixLength, byte[] address) {
        if (network.length != address.length) {
            return false;
        }
        int whole = prefixLength / 8;
        for (int i = 0; i < whole; i++) {
            if (network[i] != address[i]) {
                return false;
            }
        }
        int rest = prefixLength % 8;
        if (rest == 0) {
            return true;
        }
        int mask = 0xff << (8 - rest);
        return ((network[whole] ^ address[whole]) & mask) == 0;
    }

    private static void parseEntry(String entry, byte[][] networks, int[] prefixLengths, int index) {
        String text = entry.trim();
        int slash = text.indexOf('/');
        String addressText = slash < 0 ? text : text.substring(0, slash);
        if (addressText.length() > 2 && addressText.startsWith("[") && addressText.endsWith("]")) {
            addressText = addressText.substring(1, addressText.length() - 1);
        }
        byte[] address = addressText.indexOf(':') >= 0 ? parseIpv6(addressText) : parseIpv4(addressText);
        if (address == null) {
            throw new IllegalArgumentException("trustedProxies: " + entry + EXPECTED);
        }
        int prefixLength = slash < 0 ? address.length * 8 : parsePrefixLength(text, slash + 1, address.length * 8);
        if (prefixLength < 0) {
            throw new IllegalArgumentException("trustedProxies: " + entry + " (expected: a prefix length from 0 to "
                    + address.length * 8 + " after the /)");
        }
        if (!hostBitsClear(address, prefixLength)) {
            throw new IllegalArgumentException(
                    "trustedProxies: " + entry + " (expected: no address bits set after the prefix length)");
        }
        if (isIpv4Mapped(address) && prefixLength >= 96) {
            address = Arrays.copyOfRange(address, 12, 16);
            prefixLength -= 96;
        }
        networks[index] = address;
        prefixLengths[index] = prefixLength;
    }

    private static int parsePrefixLength(String text, int from, int max) {
        int value = parseDecimal(text, from, text.length());
        return value > max ? -1 : value;
    }

    private static boolean hostBitsClear(byte[] address, int prefixLength) {
        for (int bit = prefixLength; bit < address.length * 8; bit++) {
            if ((address[bit / 8] & (0x80 >>> (bit % 8))) != 0) {
                return false;
            }
        }
        return true;
    }

    private static boolean isIpv4Mapped(byte[] address) {
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

    private static int parseDecimal(String text, int from, int to) {
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
}
