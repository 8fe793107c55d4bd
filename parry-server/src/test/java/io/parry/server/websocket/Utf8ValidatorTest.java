package io.parry.server.websocket;

import static org.assertj.core.api.Assertions.assertThat;

import io.netty.buffer.Unpooled;
import java.nio.charset.StandardCharsets;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

class Utf8ValidatorTest {
    @Test
    void acceptsTextSplitInsideACharacter() {
        byte[] text = "κόσμε 😀".getBytes(StandardCharsets.UTF_8);
        Utf8Validator validator = new Utf8Validator();

        assertThat(validator.accept(Unpooled.wrappedBuffer(text, 0, 2))).isTrue();
        assertThat(validator.isComplete()).isTrue();
        assertThat(validator.accept(Unpooled.wrappedBuffer(text, 2, text.length - 3)))
                .isTrue();
        assertThat(validator.isComplete()).isFalse();
        assertThat(validator.accept(Unpooled.wrappedBuffer(text, text.length - 1, 1)))
                .isTrue();
        assertThat(validator.isComplete()).isTrue();
    }

    @ParameterizedTest
    @ValueSource(
            strings = {
                "C0AF", // overlong '/'
                "E080AF", // overlong, three bytes
                "EDA080", // a surrogate
                "F4908080", // past U+10FFFF
                "FF", // never in UTF-8
                "80", // a continuation byte first
                "CE41" // a lead byte followed by ASCII
            })
    void refusesMalformedSequences(String hex) {
        byte[] bytes = new byte[hex.length() / 2];
        for (int i = 0; i < bytes.length; i++) {
            bytes[i] = (byte) Integer.parseInt(hex.substring(2 * i, 2 * i + 2), 16);
        }

        assertThat(new Utf8Validator().accept(Unpooled.wrappedBuffer(bytes))).isFalse();
    }
}
