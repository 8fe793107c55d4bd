package io.parry.protection.internal;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.parry.http.HttpHeaders;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.util.List;
import org.junit.jupiter.api.Test;

class AddressBlocksTest {

    @Test
    void matchesIpv4AndIpv6BlocksByPrefix() {
        AddressBlocks blocks = AddressBlocks.parse("allow", List.of("10.0.0.0/8", "192.168.1.7", "2001:db8::/32"));

        assertThat(blocks.contains(AddressBlocks.address("10.200.3.4"))).isTrue();
        assertThat(blocks.contains(AddressBlocks.address("11.0.0.1"))).isFalse();
        assertThat(blocks.contains(AddressBlocks.address("192.168.1.7"))).isTrue();
        assertThat(blocks.contains(AddressBlocks.address("192.168.1.8"))).isFalse();
        assertThat(blocks.contains(AddressBlocks.address("2001:db8:ffff::1"))).isTrue();
        assertThat(blocks.contains(AddressBlocks.address("2001:db9::1"))).isFalse();
        assertThat(blocks.contains(null)).isFalse();
    }

    @Test
    void readsIpv4MappedIpv6AsIpv4() {
        AddressBlocks blocks = AddressBlocks.parse("allow", List.of("::ffff:10.0.0.0/104"));

        assertThat(blocks.contains(AddressBlocks.address("10.1.2.3"))).isTrue();
        assertThat(blocks.contains(AddressBlocks.address("::ffff:10.1.2.3"))).isTrue();
        assertThat(blocks.contains(AddressBlocks.address("11.1.2.3"))).isFalse();
    }

    @Test
    void refusesNamesBadPrefixesAndHostBits() {
        assertThatThrownBy(() -> AddressBlocks.parse("deny", List.of("example.com")))
                .hasMessageStartingWith("deny: example.com (expected: an IPv4 or IPv6 address");
        assertThatThrownBy(() -> AddressBlocks.parse("deny", List.of("10.0.0.0/33")))
                .hasMessage("deny: 10.0.0.0/33 (expected: a prefix length from 0 to 32 after the /)");
        assertThatThrownBy(() -> AddressBlocks.parse("deny", List.of("10.0.0.1/8")))
                .hasMessage("deny: 10.0.0.1/8 (expected: no address bits set after the prefix length)");
    }

    @Test
    void findsTheClientBehindTrustedProxiesFromTheRight() throws Exception {
        AddressBlocks trusted = AddressBlocks.parse("trustedProxies", List.of("10.0.0.0/8", "fd00::/8"));
        InetSocketAddress proxy = new InetSocketAddress(InetAddress.getByName("fd00::1"), 5000);
        HttpHeaders forwarded =
                HttpHeaders.of("x-forwarded-for", "198.51.100.9, 2001:db8::7", "X-Forwarded-For", "10.1.1.1");

        assertThat(ClientAddress.of(proxy, forwarded, trusted)).isEqualTo(AddressBlocks.address("2001:db8::7"));
        InetSocketAddress stranger = new InetSocketAddress(InetAddress.getByName("2001:db8::5"), 5000);
        assertThat(ClientAddress.of(stranger, forwarded, trusted)).isEqualTo(AddressBlocks.address("2001:db8::5"));
        assertThat(ClientAddress.of(proxy, HttpHeaders.of("x-forwarded-for", "unknown"), trusted))
                .isNull();
        assertThat(ClientAddress.of(proxy, HttpHeaders.of("x-forwarded-for", "10.9.9.9"), trusted))
                .isEqualTo(AddressBlocks.address("10.9.9.9"));
    }
}
