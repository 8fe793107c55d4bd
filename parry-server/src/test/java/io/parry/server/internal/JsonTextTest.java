package io.parry.server.internal;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

class JsonTextTest {

    @Test
    void escapesQuotesBackslashesAndControlCharacters() {
        String json = JsonText.appendString(new StringBuilder(), "a\"b\\c\nd\re\tf\u0001g\u007fh\u2028")
                .toString();

        assertThat(json).isEqualTo("\"a\\\"b\\\\c\\nd\\re\\tf\\u0001g\\u007fh\\u2028\"");
    }

    @Test
    void escapesWhatFollowsALongCleanStart() {
        String json =
                JsonText.appendString(new StringBuilder(), "/todos/42?q=\"x\"").toString();

        assertThat(json).isEqualTo("\"/todos/42?q=\\\"x\\\"\"");
    }

    @Test
    void keepsOtherCharactersAsTheyAre() {
        assertThat(JsonText.appendString(new StringBuilder(), "Grüße/€ <ok>").toString())
                .isEqualTo("\"Grüße/€ <ok>\"");
    }

    @Test
    void writesNullForNoValue() {
        assertThat(JsonText.appendString(new StringBuilder(), null).toString()).isEqualTo("null");
    }

    @Test
    void writesMillisecondsWithThreeDecimals() {
        assertThat(JsonText.appendMillis(new StringBuilder(), 1_234_567).toString())
                .isEqualTo("1.234");
        assertThat(JsonText.appendMillis(new StringBuilder(), 5_000).toString()).isEqualTo("0.005");
        assertThat(JsonText.appendMillis(new StringBuilder(), 2_000_050_000L).toString())
                .isEqualTo("2000.050");
    }
}
