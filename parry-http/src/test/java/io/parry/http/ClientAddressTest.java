package io.parry.http;

import static org.assertj.core.api.Assertions.assertThat;

import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.util.List;
import org.junit.jupiter.api.Test;

class ClientAddressTest {
    private static final AddressBlocks TRUSTED =
            AddressBlocks.parse("trustedProxies", List.of("10.0.0.0/8", "fd00::/8"));

    private static String client(String peer, String... forwardedFor) throws Exception {
        HttpHeaders.Builder headers = HttpHeaders.builder();
        for (String value : forwardedFor) {
            headers.add("X-Forwarded-For", value);
        }
        InetAddress address = ClientAddress.behind(
                TRUSTED, new InetSocketAddress(InetAddress.getByName(peer), 5000), headers.build());
        return address == null ? null : address.getHostAddress();
    }

    @Test
    void believesForwardedForOnlyFromATrustedPeer() throws Exception {
        assertThat(client("198.51.100.1", "203.0.113.9")).isEqualTo("198.51.100.1");
        assertThat(client("10.0.0.1", "203.0.113.9")).isEqualTo("203.0.113.9");
    }

    @Test
    void takesTheRightmostUntrustedEntryAcrossFieldsSoAClientCannotChooseIt() throws Exception {
        assertThat(client("10.0.0.1", "1.1.1.1, 203.0.113.9", "10.0.0.2")).isEqualTo("203.0.113.9");
        assertThat(client("fd00::1", "198.51.100.9, 2001:db8::7", "10.1.1.1")).isEqualTo("2001:db8:0:0:0:0:0:7");
        assertThat(client("2001:db8::5", "198.51.100.9, 2001:db8::7", "10.1.1.1"))
                .isEqualTo("2001:db8:0:0:0:0:0:5");
    }

    @Test
    void takesTheLeftmostEntryWhenEveryEntryIsTrusted() throws Exception {
        assertThat(client("10.0.0.1", "10.0.0.3, 10.0.0.2")).isEqualTo("10.0.0.3");
        assertThat(client("10.0.0.1", "10.9.9.9")).isEqualTo("10.9.9.9");
    }

    @Test
    void takesThePeerWhenATrustedProxySentNoEntry() throws Exception {
        assertThat(client("10.0.0.1")).isEqualTo("10.0.0.1");
        assertThat(client("10.0.0.1", " , ")).isEqualTo("10.0.0.1");
    }

    @Test
    void makesTheClientUnknownWhenTheRightmostUntrustedEntryIsNotAnAddress() throws Exception {
        assertThat(client("10.0.0.1", "unknown")).isNull();
        assertThat(client("10.0.0.1", "evil.example, 10.0.0.2")).isNull();
        assertThat(client("10.0.0.1", "010.0.0.9")).isNull();
        assertThat(client("10.0.0.1", "203.0.113.9:4711")).isNull();
    }

    @Test
    void ignoresWhatLiesLeftOfTheRightmostUntrustedEntry() throws Exception {
        assertThat(client("10.0.0.1", "evil.example, 203.0.113.9")).isEqualTo("203.0.113.9");
    }

    @Test
    void readsBracketedAndIpv4MappedEntries() throws Exception {
        assertThat(client("10.0.0.1", "[2001:db8::1]")).isEqualTo("2001:db8:0:0:0:0:0:1");
        assertThat(client("10.0.0.1", "::ffff:203.0.113.9")).isEqualTo("203.0.113.9");
    }

    @Test
    void findsNoClientForAPeerWithoutAddress() {
        assertThat(ClientAddress.behind(TRUSTED, InetSocketAddress.createUnresolved("client", 1), HttpHeaders.empty()))
                .isNull();
        assertThat(ClientAddress.behind(TRUSTED, null, HttpHeaders.empty())).isNull();
    }
}
