package io.parry.proxy;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.net.InetAddress;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

class ForwardingOptionsTest {

    private static InetAddress address(int a, int b, int c, int d) throws Exception {
        return InetAddress.getByAddress(new byte[] {(byte) a, (byte) b, (byte) c, (byte) d});
    }

    @Test
    void defaultsAreTheDocumentedOnes() throws Exception {
        ForwardingOptions options = ForwardingOptions.ofDefault();

        assertThat(options.trustedProxies()).isEmpty();
        assertThat(options.isTrusted(address(127, 0, 0, 1))).isFalse();
        assertThat(options.xForwarded()).isTrue();
        assertThat(options.forwarded()).isTrue();
        assertThat(options.via()).isEqualTo("parry");
    }

    @Test
    void builderKeepsEveryValue() throws Exception {
        ForwardingOptions options = ForwardingOptions.builder()
                .trustedProxies(List.of("10.0.0.0/8", "::1"))
                .xForwarded(false)
                .forwarded(false)
                .via("edge-1")
                .build();

        assertThat(options.trustedProxies()).containsExactly("10.0.0.0/8", "::1");
        assertThat(options.isTrusted(address(10, 20, 30, 40))).isTrue();
        assertThat(options.isTrusted(address(11, 0, 0, 1))).isFalse();
        assertThat(options.isTrusted(null)).isFalse();
        assertThat(options.xForwarded()).isFalse();
        assertThat(options.forwarded()).isFalse();
        assertThat(options.via()).isEqualTo("edge-1");
    }

    @Test
    void toBuilderStartsFromTheseOptions() throws Exception {
        ForwardingOptions options = ForwardingOptions.builder()
                .trustedProxies(List.of("10.0.0.0/8"))
                .forwarded(false)
                .via("")
                .build();

        ForwardingOptions copy = options.toBuilder().xForwarded(false).build();

        assertThat(copy.trustedProxies()).containsExactly("10.0.0.0/8");
        assertThat(copy.isTrusted(address(10, 0, 0, 1))).isTrue();
        assertThat(copy.forwarded()).isFalse();
        assertThat(copy.via()).isEmpty();
        assertThat(copy.xForwarded()).isFalse();
        assertThat(options.xForwarded()).isTrue();
    }

    @Test
    void ignoresLaterChangesToTheTrustedList() {
        List<String> trusted = new ArrayList<>(List.of("10.0.0.0/8"));
        ForwardingOptions.Builder builder = ForwardingOptions.builder().trustedProxies(trusted);
        trusted.add("bogus");

        assertThat(builder.build().trustedProxies()).containsExactly("10.0.0.0/8");
    }

    @Test
    void refusesATrustedProxyThatIsNotAnAddressOrBlock() {
        assertThatThrownBy(() -> ForwardingOptions.builder()
                        .trustedProxies(List.of("10.0.0.0/8", "proxy.internal"))
                        .build())
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessage("trustedProxies: proxy.internal (expected: an IPv4 or IPv6 address, or a CIDR block"
                        + " such as 10.0.0.0/8 or 2001:db8::/32)");
    }

    @Test
    void refusesAPseudonymThatIsNotAToken() {
        assertThatThrownBy(() -> ForwardingOptions.builder().via("my proxy").build())
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessage("via: my proxy (expected: a token such as parry, or empty to send no Via)");
        assertThatThrownBy(() -> ForwardingOptions.builder().via("a,b").build())
                .hasMessage("via: a,b (expected: a token such as parry, or empty to send no Via)");
    }

    @Test
    void refusesNulls() {
        assertThatThrownBy(() -> ForwardingOptions.builder().via(null)).hasMessage("pseudonym");
        assertThatThrownBy(() -> ForwardingOptions.builder().trustedProxies(null))
                .hasMessage("cidrsOrAddresses");
    }
}
