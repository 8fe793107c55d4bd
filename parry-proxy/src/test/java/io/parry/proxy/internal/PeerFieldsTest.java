package io.parry.proxy.internal;

import static io.parry.proxy.internal.PeerContext.literal;
import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

class PeerFieldsTest {

    @Test
    void makesTheAddressAndForwardedElementAgainWhenThePeerChanges() {
        assertThat(PeerFields.of(literal("192.0.2.1")).address()).isEqualTo("192.0.2.1");
        assertThat(PeerFields.of(literal("192.0.2.1")).forwardedElement("a.example", false))
                .isEqualTo("for=192.0.2.1;proto=http;host=a.example");

        PeerFields other = PeerFields.of(literal("2001:db8::1"));

        assertThat(other.address()).isEqualTo("2001:db8::1");
        assertThat(other.forwardedElement("a.example", false))
                .isEqualTo("for=\"[2001:db8::1]\";proto=http;host=a.example");
        assertThat(PeerFields.of(null).address()).isEqualTo("unknown");
    }

    @Test
    void makesTheForwardedElementAgainWhenTheHostOrSchemeChanges() {
        PeerFields peer = PeerFields.of(literal("192.0.2.7"));

        assertThat(peer.forwardedElement("a.example", false)).isEqualTo("for=192.0.2.7;proto=http;host=a.example");
        assertThat(peer.forwardedElement("b.example", false)).isEqualTo("for=192.0.2.7;proto=http;host=b.example");
        assertThat(peer.forwardedElement("b.example", true)).isEqualTo("for=192.0.2.7;proto=https;host=b.example");
        assertThat(peer.forwardedElement(null, true)).isEqualTo("for=192.0.2.7;proto=https");
    }

    @Test
    void keepsTheValuesForTheSamePeer() {
        PeerFields first = PeerFields.of(literal("192.0.2.9"));
        String element = first.forwardedElement("a.example", false);

        PeerFields again = PeerFields.of(literal("192.0.2.9"));

        assertThat(again.forwardedElement("a.example", false)).isSameAs(element);
    }
}
