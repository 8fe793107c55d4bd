package io.parry.http.internal;

import static org.assertj.core.api.Assertions.assertThat;

import java.net.InetAddress;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

class AddressLiteralTest {

    @ParameterizedTest
    @ValueSource(
            strings = {
                "::",
                "::1",
                "1::",
                "2001:db8::1",
                "2001:db8:0:0:1:0:0:1",
                "1:2:3:4:5:6:7:8",
                "1:2:3:4:5:6:7::",
                "::2:3:4:5:6:7:8",
                "fe80::abcd:EF01",
                "::1.2.3.4",
                "64:ff9b::192.0.2.33",
                "1:2:3:4:5:6:1.2.3.4"
            })
    void parsesIpv6AsTheJdkDoes(String text) throws Exception {
        assertThat(AddressLiteral.parseIpv6(text))
                .isEqualTo(InetAddress.getByName(text).getAddress());
    }

    @ParameterizedTest
    @ValueSource(strings = {"[::1]", "[2001:db8::1]"})
    void acceptsABracketedIpv6Address(String text) throws Exception {
        assertThat(AddressLiteral.parse(text))
                .isEqualTo(InetAddress.getByName(text).getAddress());
    }
}
