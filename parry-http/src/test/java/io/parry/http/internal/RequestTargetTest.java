package io.parry.http.internal;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.params.provider.ValueSource;

class RequestTargetTest {

    @Test
    void parsesOriginFormWithQuery() {
        RequestTarget target = RequestTarget.parse("/todos/42?view=full&x=");

        assertThat(target.path()).isEqualTo("/todos/42");
        assertThat(target.query()).isEqualTo("view=full&x=");
        assertThat(target.authority()).isNull();
    }

    @Test
    void parsesOriginFormWithoutQuery() {
        RequestTarget target = RequestTarget.parse("/todos");

        assertThat(target.path()).isEqualTo("/todos");
        assertThat(target.query()).isEmpty();
    }

    @Test
    void keepsAnEmptyQueryEmpty() {
        assertThat(RequestTarget.parse("/a?").query()).isEmpty();
    }

    @Test
    void queryMayHoldSlashesQuestionMarksAndColons() {
        assertThat(RequestTarget.parse("/a?next=/b?c=http://d").query()).isEqualTo("next=/b?c=http://d");
    }

    @Test
    void normalisesTheOriginFormPath() {
        assertThat(RequestTarget.parse("/a/../../etc/%70asswd?x=1").path()).isEqualTo("/etc/passwd");
    }

    @ParameterizedTest
    @CsvSource({
        "http://example.com/a/b?c=d, example.com, /a/b, c=d",
        "https://example.com:8443/a, example.com:8443, /a, ''",
        "http://example.com, example.com, /, ''",
        "https://example.com?x=1, example.com, /, x=1",
        "http://example.com/, example.com, /, ''",
        "HTTP://Example.COM/A, Example.COM, /A, ''",
        "hTTpS://[::1]:8080/a/./b/../c, [::1]:8080, /a/c, ''"
    })
    void parsesAbsoluteForm(String text, String authority, String path, String query) {
        RequestTarget target = RequestTarget.parse(text);

        assertThat(target.authority()).isEqualTo(authority);
        assertThat(target.path()).isEqualTo(path);
        assertThat(target.query()).isEqualTo(query);
    }

    @Test
    void parsesAsteriskForm() {
        RequestTarget target = RequestTarget.parse("*");

        assertThat(target.path()).isEqualTo("*");
        assertThat(target.query()).isEmpty();
        assertThat(target.authority()).isNull();
    }

    @ParameterizedTest
    @ValueSource(strings = {"/a\u0000b", "/a\u0001b", "/a\tb", "/a\rb", "/a\nb", "/a\u007fb", "/a?b=\u001f"})
    void rejectsControlCharacters(String text) {
        assertThatThrownBy(() -> RequestTarget.parse(text))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("not allowed at index");
    }

    @ParameterizedTest
    @ValueSource(strings = {"/a b", "/a?b=c d", " /a", "/caf\u00e9", "/a#frag", "/a?b#frag", "/a\\..\\b", "/a\\b"})
    void rejectsSpaceNonAsciiFragmentsAndBackslashes(String text) {
        assertThatThrownBy(() -> RequestTarget.parse(text)).isInstanceOf(IllegalArgumentException.class);
    }

    @ParameterizedTest
    @ValueSource(strings = {"/%G1", "/%1G", "/%2", "/a%", "/%%41", "/%zz", "/a?b=%2", "/a?b=%g0"})
    void rejectsBadPercentEncoding(String text) {
        assertThatThrownBy(() -> RequestTarget.parse(text))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("invalid percent-encoding");
    }

    @ParameterizedTest
    @ValueSource(strings = {"/%00", "/a%00b", "/a?b=%00"})
    void rejectsPercentEncodedNul(String text) {
        assertThatThrownBy(() -> RequestTarget.parse(text))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("percent-encoded NUL");
    }

    @Test
    void acceptsOtherPercentEncodingInPathAndQuery() {
        RequestTarget target = RequestTarget.parse("/a%2Fb%0a?q=%0D%0A%ff");

        assertThat(target.path()).isEqualTo("/a%2Fb%0A");
        assertThat(target.query()).isEqualTo("q=%0D%0A%ff");
    }

    @ParameterizedTest
    @ValueSource(strings = {"http://user@example.com/", "http://user:pass@example.com/a", "https://@example.com"})
    void rejectsUserInfoInTheAuthority(String text) {
        assertThatThrownBy(() -> RequestTarget.parse(text))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("no user info");
    }

    @ParameterizedTest
    @ValueSource(strings = {"http:///a", "https://?x", "http://"})
    void rejectsAnEmptyAuthority(String text) {
        assertThatThrownBy(() -> RequestTarget.parse(text))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("needs a host");
    }

    @ParameterizedTest
    @ValueSource(
            strings = {
                "ftp://example.com/a",
                "httpx://example.com/",
                "htt://example.com/",
                "ws://example.com/",
                "://example.com/",
                "example.com:80",
                "a/b",
                "http:/example.com",
                "**"
            })
    void rejectsTargetsInNoSupportedForm(String text) {
        assertThatThrownBy(() -> RequestTarget.parse(text))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("neither origin-form nor absolute-form");
    }

    @Test
    void rejectsAnEmptyTarget() {
        assertThatThrownBy(() -> RequestTarget.parse(""))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessage("empty request-target");
    }
}
