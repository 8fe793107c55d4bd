package io.parry.http;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.net.InetAddress;
import java.net.UnknownHostException;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

class AddressBlocksTest {

    private static InetAddress literal(String address) {
        try {
            return InetAddress.getByName(address);
        } catch (UnknownHostException e) {
            throw new IllegalArgumentException(address, e);
        }
    }

    @Test
    void trustsAnIpv4AddressAndNotItsNeighbours() {
        AddressBlocks trusted = AddressBlocks.parse("trustedProxies", List.of("192.0.2.10"));

        assertThat(trusted.contains(literal("192.0.2.10"))).isTrue();
        assertThat(trusted.contains(literal("192.0.2.11"))).isFalse();
        assertThat(trusted.contains(literal("192.0.2.9"))).isFalse();
    }

    @Test
    void treatsASlash32AsOneAddress() {
        AddressBlocks trusted = AddressBlocks.parse("trustedProxies", List.of("192.0.2.10/32"));

        assertThat(trusted.contains(literal("192.0.2.10"))).isTrue();
        assertThat(trusted.contains(literal("192.0.2.11"))).isFalse();
    }

    @Test
    void matchesAnIpv4BlockUpToItsEdges() {
        AddressBlocks trusted = AddressBlocks.parse("trustedProxies", List.of("10.0.0.0/8"));

        assertThat(trusted.contains(literal("10.0.0.0"))).isTrue();
        assertThat(trusted.contains(literal("10.255.255.255"))).isTrue();
        assertThat(trusted.contains(literal("9.255.255.255"))).isFalse();
        assertThat(trusted.contains(literal("11.0.0.0"))).isFalse();
    }

    @Test
    void refusesAnAddressOneBitOutsideABlockNotOnAByteBoundary() {
        AddressBlocks trusted = AddressBlocks.parse("trustedProxies", List.of("192.168.0.0/23", "10.0.0.0/25"));

        assertThat(trusted.contains(literal("192.168.1.255"))).isTrue();
        assertThat(trusted.contains(literal("192.168.2.0"))).isFalse();
        assertThat(trusted.contains(literal("10.0.0.127"))).isTrue();
        assertThat(trusted.contains(literal("10.0.0.128"))).isFalse();
    }

    @Test
    void slash0MatchesEveryAddressOfItsFamilyOnly() {
        AddressBlocks ipv4 = AddressBlocks.parse("trustedProxies", List.of("0.0.0.0/0"));
        AddressBlocks ipv6 = AddressBlocks.parse("trustedProxies", List.of("::/0"));

        assertThat(ipv4.contains(literal("255.255.255.255"))).isTrue();
        assertThat(ipv4.contains(literal("2001:db8::1"))).isFalse();
        assertThat(ipv6.contains(literal("ffff:ffff:ffff:ffff:ffff:ffff:ffff:ffff")))
                .isTrue();
        assertThat(ipv6.contains(literal("1.2.3.4"))).isFalse();
    }

    @Test
    void matchesAnIpv6BlockUpToItsEdges() {
        AddressBlocks trusted = AddressBlocks.parse("trustedProxies", List.of("2001:db8::/32"));

        assertThat(trusted.contains(literal("2001:db8::"))).isTrue();
        assertThat(trusted.contains(literal("2001:db8:ffff:ffff:ffff:ffff:ffff:ffff")))
                .isTrue();
        assertThat(trusted.contains(literal("2001:db9::"))).isFalse();
        assertThat(trusted.contains(literal("2001:db7:ffff:ffff:ffff:ffff:ffff:ffff")))
                .isFalse();
    }

    @Test
    void treatsASlash128AsOneAddress() {
        AddressBlocks trusted = AddressBlocks.parse("trustedProxies", List.of("::1/128"));

        assertThat(trusted.contains(literal("::1"))).isTrue();
        assertThat(trusted.contains(literal("::2"))).isFalse();
        assertThat(trusted.contains(literal("::"))).isFalse();
    }

    @Test
    void refusesAnIpv6AddressOneBitOutsideASlash127() {
        AddressBlocks trusted = AddressBlocks.parse("trustedProxies", List.of("2001:db8::/127"));

        assertThat(trusted.contains(literal("2001:db8::1"))).isTrue();
        assertThat(trusted.contains(literal("2001:db8::2"))).isFalse();
    }

    @Test
    void acceptsBracketsFullFormsAndSpaces() {
        AddressBlocks trusted =
                AddressBlocks.parse("trustedProxies", List.of("[::1]", " 2001:0DB8:0000:0000:0000:0000:0000:0007 "));

        assertThat(trusted.contains(literal("::1"))).isTrue();
        assertThat(trusted.contains(literal("2001:db8::7"))).isTrue();
    }

    @Test
    void matchesIpv4PeersAgainstAnIpv4MappedBlock() {
        AddressBlocks trusted = AddressBlocks.parse("trustedProxies", List.of("::ffff:10.0.0.0/104"));

        assertThat(trusted.contains(literal("10.1.2.3"))).isTrue();
        assertThat(trusted.contains(literal("11.1.2.3"))).isFalse();
    }

    @Test
    void trustsNothingWhenEmptyOrForAMissingAddress() {
        assertThat(AddressBlocks.parse("trustedProxies", List.of()).contains(literal("127.0.0.1")))
                .isFalse();
        assertThat(AddressBlocks.none().isEmpty()).isTrue();
        assertThat(AddressBlocks.parse("trustedProxies", List.of("0.0.0.0/0")).contains((InetAddress) null))
                .isFalse();
    }

    @Test
    void keepsTheEntriesAsGivenAndIgnoresLaterChangesToTheList() {
        List<String> entries = new ArrayList<>(List.of("10.0.0.0/8"));
        AddressBlocks trusted = AddressBlocks.parse("trustedProxies", entries);
        entries.add("0.0.0.0/0");

        assertThat(trusted.entries()).containsExactly("10.0.0.0/8");
        assertThat(trusted.contains(literal("1.1.1.1"))).isFalse();
    }

    @ParameterizedTest
    @ValueSource(
            strings = {
                "localhost",
                "example.com",
                "abc",
                "",
                "10.0.0",
                "10.0.0.256",
                "010.0.0.1",
                "10.0.0.1.",
                "1..2.3",
                "1:2:3:4:5:6:7:8:9",
                "1::2::3",
                ":1::",
                "1:",
                "::g",
                "12345::",
                "fe80::1%eth0",
                "1:2:3:4:5:6:7:1.2.3.4"
            })
    void refusesWhatIsNotANumericAddress(String entry) {
        assertThatThrownBy(() -> AddressBlocks.parse("trustedProxies", List.of(entry)))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessage("trustedProxies: " + entry
                        + " (expected: an IPv4 or IPv6 address, or a CIDR block such as 10.0.0.0/8 or 2001:db8::/32)");
    }

    @Test
    void refusesAPrefixLengthOutOfRange() {
        assertThatThrownBy(() -> AddressBlocks.parse("trustedProxies", List.of("10.0.0.0/33")))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessage("trustedProxies: 10.0.0.0/33 (expected: a prefix length from 0 to 32 after the /)");
        assertThatThrownBy(() -> AddressBlocks.parse("trustedProxies", List.of("::/129")))
                .hasMessage("trustedProxies: ::/129 (expected: a prefix length from 0 to 128 after the /)");
        assertThatThrownBy(() -> AddressBlocks.parse("trustedProxies", List.of("10.0.0.0/")))
                .hasMessageStartingWith("trustedProxies: 10.0.0.0/ (expected: a prefix length");
        assertThatThrownBy(() -> AddressBlocks.parse("trustedProxies", List.of("10.0.0.0/-1")))
                .hasMessageStartingWith("trustedProxies: 10.0.0.0/-1 (expected: a prefix length");
    }

    @Test
    void refusesABlockWithBitsSetAfterItsPrefix() {
        assertThatThrownBy(() -> AddressBlocks.parse("trustedProxies", List.of("10.0.0.1/8")))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessage("trustedProxies: 10.0.0.1/8 (expected: no address bits set after the prefix length)");
        assertThatThrownBy(() -> AddressBlocks.parse("trustedProxies", List.of("2001:db8::1/64")))
                .hasMessage("trustedProxies: 2001:db8::1/64 (expected: no address bits set after the prefix length)");
    }

    @Test
    void matchesAddressBytesAndReadsIpv4MappedAddressesAsIpv4() {
        AddressBlocks blocks = AddressBlocks.parse(
                "allow", List.of("10.0.0.0/8", "192.168.1.7", "::ffff:172.16.0.0/108", "2001:db8::/32"));

        assertThat(blocks.contains(AddressBlocks.address("10.200.3.4"))).isTrue();
        assertThat(blocks.contains(AddressBlocks.address("::ffff:10.1.2.3"))).isTrue();
        assertThat(blocks.contains(AddressBlocks.address("172.31.255.255"))).isTrue();
        assertThat(blocks.contains(AddressBlocks.address("192.168.1.8"))).isFalse();
        assertThat(blocks.contains(AddressBlocks.address("2001:db8:ffff::1"))).isTrue();
        assertThat(blocks.contains(AddressBlocks.address("2001:db9::1"))).isFalse();
        assertThat(blocks.contains((byte[]) null)).isFalse();
        assertThat(AddressBlocks.address("example.com")).isNull();
    }

    @Test
    void namesTheOptionInItsMessages() {
        assertThatThrownBy(() -> AddressBlocks.parse("deny", List.of("example.com")))
                .hasMessageStartingWith("deny: example.com (expected: an IPv4 or IPv6 address");
        assertThatThrownBy(() -> AddressBlocks.parse("deny", List.of("10.0.0.0/33")))
                .hasMessage("deny: 10.0.0.0/33 (expected: a prefix length from 0 to 32 after the /)");
        assertThatThrownBy(() -> AddressBlocks.parse("deny", List.of("10.0.0.1/8")))
                .hasMessage("deny: 10.0.0.1/8 (expected: no address bits set after the prefix length)");
    }

    @Test
    void equalsAnotherSetWithTheSameEntries() {
        assertThat(AddressBlocks.parse("a", List.of("10.0.0.0/8")))
                .isEqualTo(AddressBlocks.parse("b", List.of("10.0.0.0/8")))
                .isNotEqualTo(AddressBlocks.parse("a", List.of("10.0.0.0/9")));
    }
}
