package io.parry.http;

import static java.util.Objects.requireNonNull;

import io.parry.http.internal.AddressLiteral;
import java.net.InetAddress;
import java.util.List;

/**
 * A set of IPv4 and IPv6 addresses and CIDR blocks, such as trusted proxies or the clients an IP rule
 * admits, parsed once from text and matched without allocation beyond the address bytes.
 *
 * <pre>{@code
 * AddressBlocks office = AddressBlocks.parse("allow", List.of("10.0.0.0/8", "2001:db8::/32", "192.0.2.7"));
 * office.contains(InetAddress.getByName("10.1.2.3"));   // true
 * }</pre>
 *
 * <p>Parsing accepts only numeric addresses, so trust never depends on DNS; an IPv4 part with a leading
 * zero is refused, as some parsers read it as octal. IPv4-mapped IPv6 blocks and addresses ({@code
 * ::ffff:10.0.0.0/104}) are compared as IPv4, as the JDK presents such peers as IPv4 addresses.
 * Immutable and thread-safe; two sets are equal when their entries are.
 */
public final class AddressBlocks {
    private static final AddressBlocks NONE = new AddressBlocks(new byte[0][], new int[0], List.of());
    private static final String EXPECTED =
            " (expected: an IPv4 or IPv6 address, or a CIDR block such as 10.0.0.0/8 or 2001:db8::/32)";

    private final byte[][] networks;
    private final int[] prefixLengths;
    private final List<String> entries;

    private AddressBlocks(byte[][] networks, int[] prefixLengths, List<String> entries) {
        this.networks = networks;
        this.prefixLengths = prefixLengths;
        this.entries = entries;
    }

    /** The empty set: it contains no address. */
    public static AddressBlocks none() {
        return NONE;
    }

    /**
     * Parses addresses such as {@code 10.1.2.3}, {@code ::1} or {@code [::1]} and blocks such as {@code
     * 10.0.0.0/8} or {@code 2001:db8::/32}; spaces around an entry are ignored.
     *
     * @param option the option's name, which starts the message of the exception
     * @throws IllegalArgumentException naming the first entry that is not such an address or block, or a
     *     block with bits set after its prefix length
     */
    public static AddressBlocks parse(String option, List<String> entries) {
        requireNonNull(option, "option");
        List<String> copy = List.copyOf(entries);
        if (copy.isEmpty()) {
            return NONE;
        }
        byte[][] networks = new byte[copy.size()][];
        int[] prefixLengths = new int[copy.size()];
        for (int i = 0; i < copy.size(); i++) {
            parseEntry(option, copy.get(i), networks, prefixLengths, i);
        }
        return new AddressBlocks(networks, prefixLengths, copy);
    }

    /**
     * The bytes of a numeric address (four for IPv4, IPv4-mapped IPv6 included; sixteen for IPv6), or
     * {@code null} if the text is not one; never asks DNS.
     */
    public static byte[] address(String text) {
        byte[] bytes = AddressLiteral.parse(text);
        return bytes != null && AddressLiteral.isIpv4Mapped(bytes) ? ipv4(bytes) : bytes;
    }

    /** Whether the address lies in one of the blocks; {@code false} for {@code null}. */
    public boolean contains(InetAddress address) {
        return address != null && networks.length > 0 && contains(address.getAddress());
    }

    /** Whether the address bytes, as {@link #address(String)} returns them, lie in one of the blocks; {@code false} for {@code null}. */
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

    /** Whether there is no address or block. */
    public boolean isEmpty() {
        return networks.length == 0;
    }

    /** The entries as they were given. */
    public List<String> entries() {
        return entries;
    }

    @Override
    public boolean equals(Object other) {
        return other instanceof AddressBlocks that && entries.equals(that.entries);
    }

    @Override
    public int hashCode() {
        return entries.hashCode();
    }

    @Override
    public String toString() {
        return entries.toString();
    }

    private static void parseEntry(String option, String entry, byte[][] networks, int[] prefixLengths, int index) {
        String text = entry.trim();
        int slash = text.indexOf('/');
        byte[] address = AddressLiteral.parse(slash < 0 ? text : text.substring(0, slash));
        if (address == null) {
            throw new IllegalArgumentException(option + ": " + entry + EXPECTED);
        }
        int max = address.length * 8;
        int prefixLength = slash < 0 ? max : AddressLiteral.parseDecimal(text, slash + 1, text.length());
        if (prefixLength < 0 || prefixLength > max) {
            throw new IllegalArgumentException(
                    option + ": " + entry + " (expected: a prefix length from 0 to " + max + " after the /)");
        }
        if (!hostBitsClear(address, prefixLength)) {
            throw new IllegalArgumentException(
                    option + ": " + entry + " (expected: no address bits set after the prefix length)");
        }
        if (AddressLiteral.isIpv4Mapped(address) && prefixLength >= 96) {
            address = ipv4(address);
            prefixLength -= 96;
        }
        networks[index] = address;
        prefixLengths[index] = prefixLength;
    }

    private static byte[] ipv4(byte[] mapped) {
        return new byte[] {mapped[12], mapped[13], mapped[14], mapped[15]};
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
}
