package io.parry.proxy.internal;

import static io.parry.proxy.internal.PeerContext.literal;
import static org.assertj.core.api.Assertions.assertThat;

import io.parry.proxy.ForwardingOptions;
import java.net.InetAddress;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

class ForwardingHeadersTest {

    @ParameterizedTest
    @CsvSource({
        "2001:0db8:0000:0000:0000:0000:0000:0001, 2001:db8::1",
        "2001:db8:0:0:1:0:0:1, 2001:db8::1:0:0:1",
        "2001:0:0:1:0:0:0:1, 2001:0:0:1::1",
        "2001:db8:0:1:1:1:1:1, 2001:db8:0:1:1:1:1:1",
        "0:0:0:0:0:0:0:0, ::",
        "0:0:0:0:0:0:0:1, ::1",
        "1:0:0:0:0:0:0:0, 1::",
        "FE80:0:0:0:0:0:0:ABCD, fe80::abcd",
        "1:2:3:4:5:6:7:8, 1:2:3:4:5:6:7:8"
    })
    void writesIpv6InTheRecommendedForm(String address, String expected) {
        assertThat(ForwardingHeaders.ipv6Text(literal(address).getAddress())).isEqualTo(expected);
    }

    @Test
    void writesAPeerAddressWithoutItsZone() throws Exception {
        InetAddress scoped = InetAddress.getByName("fe80::1%1");

        assertThat(ForwardingHeaders.addressText(scoped)).isEqualTo("fe80::1");
        assertThat(ForwardingHeaders.addressText(literal("192.0.2.1"))).isEqualTo("192.0.2.1");
        assertThat(ForwardingHeaders.addressText(null)).isEqualTo("unknown");
    }

    @Test
    void quotesAnIpv6NodeAndAHostThatIsNotAToken() {
        InetAddress peer = literal("2001:db8::1");

        assertThat(ForwardingHeaders.forwardedElement(peer, "2001:db8::1", "example.com:8080", false))
                .isEqualTo("for=\"[2001:db8::1]\";proto=http;host=\"example.com:8080\"");
    }

    @Test
    void leavesATokenUnquotedAndOmitsAMissingHost() {
        InetAddress peer = literal("192.0.2.1");

        assertThat(ForwardingHeaders.forwardedElement(peer, "192.0.2.1", "example.com", false))
                .isEqualTo("for=192.0.2.1;proto=http;host=example.com");
        assertThat(ForwardingHeaders.forwardedElement(peer, "192.0.2.1", null, false))
                .isEqualTo("for=192.0.2.1;proto=http");
        assertThat(ForwardingHeaders.forwardedElement(null, "unknown", null, false))
                .isEqualTo("for=unknown;proto=http");
    }

    @Test
    void escapesQuotesInAQuotedHost() {
        assertThat(ForwardingHeaders.forwardedElement(null, "unknown", "a\"b\\c", false))
                .isEqualTo("for=unknown;proto=http;host=\"a\\\"b\\\\c\"");
    }

    @Test
    void namesTheReceivedProtocolWithoutHttp() {
        assertThat(ForwardingHeaders.receivedProtocol("HTTP/1.1")).isEqualTo("1.1");
        assertThat(ForwardingHeaders.receivedProtocol("HTTP/1.0")).isEqualTo("1.0");
        assertThat(ForwardingHeaders.receivedProtocol("HTTP/2")).isEqualTo("2");
        assertThat(ForwardingHeaders.receivedProtocol("HTTP/2.0")).isEqualTo("2");
        assertThat(ForwardingHeaders.receivedProtocol("SPDY/3")).isEqualTo("SPDY/3");
    }

    @Test
    void namesEachProtocolInViaWithThePseudonymOfTheOptionsAskingNow() {
        ForwardingOptions edge = ForwardingOptions.builder().via("edge").build();
        ForwardingOptions inner = ForwardingOptions.builder().via("inner").build();

        assertThat(ForwardingHeaders.viaElement("HTTP/1.1", edge)).isEqualTo("1.1 edge");
        assertThat(ForwardingHeaders.viaElement("HTTP/1.1", inner)).isEqualTo("1.1 inner");
        assertThat(ForwardingHeaders.viaElement("HTTP/1.0", inner)).isEqualTo("1.0 inner");
        assertThat(ForwardingHeaders.viaElement("HTTP/2.0", edge)).isEqualTo("2 edge");
        assertThat(ForwardingHeaders.viaElement("HTTP/2", edge)).isEqualTo("2 edge");
        assertThat(ForwardingHeaders.viaElement("SPDY/3", edge)).isEqualTo("SPDY/3 edge");
    }
}
