package io.parry.protection.internal;

import io.netty.util.NetUtil;
import java.util.List;

/**
 * A set of IPv4 and IPv6 CIDR blocks, parsed once and matched against raw address bytes without
 * allocation. Parsing accepts only numeric addresses, so it never asks DNS. IPv4-mapped IPv6 blocks
 * and addresses ({@code ::ffff:10.0.0.0/104}) are read as IPv4, as the JDK presents such peers as
 * IPv4 addresses. Immutable and thread-safe.
 */
public final class AddressBlocks {
    private static final AddressBlocks NONE = new AddressBlocks(new byte[0][], new int[0], List.of());

    private final byte[][] networks;
    private final int[] prefixLengths;
    private final List<String> entries;

    private AddressBlocks(byte[][] networks, int[] prefixLengths, List<String> entries) {
        this.networks = networks;
        this.prefixLengths = prefixLengths;
        this.entries = entries;
    }

    /**
     * Parses addresses such as {@code 10.1.2.3} or {@code ::1} and blocks such as {@code 10.0.0.0/8}.
     *
     * @param option the option's name, for the message
     * @throws IllegalArgumentException naming the first entry that is not an address or block, or a
     *     block with bits set after its prefix length
     */
    public static AddressBlocks parse(String option, List<String> entries) {
        List<String> copy = List.copyOf(entries);
        if (copy.isEmpty()) {
            return NONE;
        }
        byte[][] networks = new byte[copy.size()][];
        int[] prefixLengths = new int[copy.size()];
        for (int i = 0; i < copy.size(); i++) {
            parseEntry(option, copy.get(i).trim(), networks, prefixLengths, i);
        }
        return new AddressBlocks(networks, prefixLengths, copy);
    }

    /** The bytes of a numeric address (IPv4-mapped IPv6 as four bytes), or {@code null} if it is not one. */
    public static byte[] address(String text) {
        byte[] bytes = NetUtil.createByteArrayFromIpAddressString(text);
        if (bytes != null && bytes.length == 16 && isIpv4Mapped(bytes)) {
            return new byte[] {bytes[12], bytes[13], bytes[14], bytes[15]};
        }
        return bytes;
    }

    /** Whether the address lies in one of the blocks; {@code false} for {@code null}. */
    public boolean contains(byte[] address) {
        if (address == null) {
            return false;
        }
        for (int i = 0; i < networks.length; i++) {
            if (matches(networks[i], prefixLengths[i], address)) {
                return true;
            }
        }
        return false;
    }

    /** Whether there is no block. */
    public boolean isEmpty() {
        return networks.length == 0;
    }

    /** The entries as they were given. */
    public List<String> entries() {
        return entries;
    }

    private static void parseEntry(String option, String entry, byte[][] networks, int[] prefixLengths, int index) {
        int slash = entry.indexOf('/');
        byte[] address = NetUtil.createByteArrayFromIpAddressString(slash < 0 ? entry : entry.substring(0, slash));
        if (address == null) {
            throw new IllegalArgumentException(option + ": " + entry
                    + " (expected: an IPv4 or IPv6 address, or a CIDR block such as 10.0.0.0/8 or 2001:db8::/32)");
        }
        int max = address.length * 8;
        int bits = slash < 0 ? max : prefixLength(entry.substring(slash + 1), max);
        if (bits < 0) {
            throw new IllegalArgumentException(
                    option + ": " + entry + " (expected: a prefix length from 0 to " + max + " after the /)");
        }
        if (!hostBitsClear(address, bits)) {
            throw new IllegalArgumentException(
                    option + ": " + entry + " (expected: no address bits set after the prefix length)");
        }
        if (address.length == 16 && isIpv4Mapped(address) && bits >= 96) {
            address = new byte[] {address[12], address[13], address[14], address[15]};
            bits -= 96;
        }
        networks[index] = address;
        prefixLengths[index] = bits;
    }

    private static int prefixLength(String text, int max) {
        if (text.isEmpty() || text.length() > 3) {
            return -1;
        }
        int value = 0;
        for (int i = 0; i < text.length(); i++) {
            char c = text.charAt(i);
            if (c < '0' || c > '9') {
                return -1;
            }
            value = value * 10 + (c - '0');
        }
        return value <= max ? value : -1;
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

    private static boolean hostBitsClear(byte[] address, int prefixLength) {
        for (int bit = prefixLength; bit < address.length * 8; bit++) {
            if ((address[bit / 8] & (0x80 >>> (bit % 8))) != 0) {
                return false;
            }
        }
        return true;
    }

    private static boolean isIpv4Mapped(byte[] bytes) {
        for (int i = 0; i < 10; i++) {
            if (bytes[i] != 0) {
                return false;
            }
        }
        return bytes[10] == (byte) 0xff && bytes[11] == (byte) 0xff;
    }
}
