package io.parry.server.internal;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.parry.server.PathNormalization;
import io.parry.server.PathNormalization.EscapedSlashAction;
import io.parry.server.PathNormalization.PathParameterAction;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.params.provider.ValueSource;

class TargetNormalizerTest {
    private static final TargetNormalizer DEFAULTS = new TargetNormalizer(PathNormalization.ofDefault());
    private static final TargetNormalizer LENIENT =
            normalizer(EscapedSlashAction.UNESCAPE_AND_FORWARD, PathParameterAction.STRIP);
    private static final TargetNormalizer KEEPING =
            normalizer(EscapedSlashAction.KEEP_UNCHANGED, PathParameterAction.KEEP_UNCHANGED);

    @ParameterizedTest
    @ValueSource(
            strings = {
                "/",
                "/a/internal",
                "/a/internal/",
                "/a/internal?x=%2F..;&y=//",
                "/a/.well-known/x..y/...",
                "/users/J%C3%BCrgen/a%20b",
                "/a/%F0%9F%98%80/%E2%82%AC/%F4%8F%BF%BF",
                "/a:b@c!$&'()*+,=~",
                "http://example.com/a/b?q",
                "*"
            })
    void returnsANormalTargetItselfWithoutCopying(String target) {
        assertThat(DEFAULTS.normalize(target)).isSameAs(target);
    }

    @ParameterizedTest(name = "{0} -> {1}")
    @CsvSource({
        "/a/./internal, /a/internal",
        "/a/%2e%2e/a/internal, /a/internal",
        "/a/x/%2E%2e/internal, /a/internal",
        "/a/x/.%2e/internal, /a/internal",
        "/a//internal, /a/internal",
        "//a///internal//, /a/internal/",
        "/a/%69nternal, /a/internal",
        "/a/%7euser/%41, /a/~user/A",
        "/a/b%c3%bc%2a, /a/b%C3%BC%2A",
        "/a/%f0%9f%98%80/%C3%bc, /a/%F0%9F%98%80/%C3%BC",
        "/a/internal/., /a/internal/",
        "/a/internal/x/.., /a/internal/",
        "/a/x/../internal?q=/../%2F;, /a/internal?q=/../%2F;",
        "http://example.com/a/./b/../internal?q, http://example.com/a/internal?q",
        "/., /",
        "/a/.., /"
    })
    void normalisesWhatEveryListenerAccepts(String target, String normal) {
        assertThat(DEFAULTS.normalize(target)).isEqualTo(normal);
        assertThat(DEFAULTS.normalize(normal)).isSameAs(normal);
    }

    @ParameterizedTest(name = "{0}")
    @ValueSource(
            strings = {
                "/a/internal;x=1/y",
                "/a/x/..;/internal",
                "/a/internal;",
                "/a/internal%2Fy",
                "/a/internal%2fy",
                "/a/internal%5Cy",
                "/a/internal%5cy",
                "/a/internal/..%2F..",
                "/a/%2e%2e%2finternal",
                "/..",
                "/a/../..",
                "/%2e%2e/a",
                "/a/%2E%2E/../internal",
                "/a%zz",
                "/a%2",
                "/a%",
                "/a%%41",
                "/a%00b",
                "/a%0d%0aX:%20y",
                "/a%7F",
                "/a/%C0%AFinternal",
                "/a/%c0%af",
                "/a/%E0%80%AF",
                "/a/%E9t%E9",
                "/a/%ED%A0%80",
                "/a/%F4%90%80%80",
                "/a/%FF",
                "/a/%C3",
                "/a/%C3%41",
                "/a/%C3%BC%BC",
                "/a\\..\\b",
                "/a\u0001b",
                "/a b",
                "/a\u00e9"
            })
    void rejectsByDefault(String target) {
        assertThatThrownBy(() -> DEFAULTS.normalize(target)).isInstanceOf(IllegalArgumentException.class);
    }

    @ParameterizedTest(name = "{0} -> {1}")
    @CsvSource({
        "/a/internal;x=1/y, /a/internal/y",
        "/a/x/..;/internal, /a/internal",
        "/a/x/..;jsessionid=1, /a/",
        "/a/internal%2Fy, /a/internal/y",
        "/a/internal%2fy, /a/internal/y",
        "/a/internal%5Cy, /a/internal/y",
        "/a/internal%5cy, /a/internal/y",
        "/a/x%2F..%2Finternal, /a/internal",
        "/a/internal/..%2F..%2Fa/internal, /a/internal",
        "/a/x;p=%2F../y, /a/x/y",
        "/a/internal%2F%2F, /a/internal/",
        "/a/x/%2e%2e;/internal?q=;%2F, /a/internal?q=;%2F"
    })
    void stripsParametersBeforeDotSegmentsAndUnescapesSlashesWhenAsked(String target, String normal) {
        assertThat(LENIENT.normalize(target)).isEqualTo(normal);
    }

    @ParameterizedTest(name = "{0}")
    @ValueSource(strings = {"/a;x%C0%AF/b", "/a;x%zz/b", "/a;x%00/b"})
    void checksTheEscapesOfAParameterItStrips(String target) {
        assertThatThrownBy(() -> LENIENT.normalize(target)).isInstanceOf(IllegalArgumentException.class);
    }

    @ParameterizedTest(name = "{0}")
    @ValueSource(strings = {"/a/internal/..%2F..%2F..", "/a;x/..;y/..;z/.."})
    void rejectsAClimbAboveTheRootThatUnescapingReveals(String target) {
        assertThatThrownBy(() -> LENIENT.normalize(target))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessage("the path climbs above the root");
    }

    @ParameterizedTest(name = "{0} -> {1}")
    @CsvSource({
        "/a/internal;x=1/y, /a/internal;x=1/y",
        "/a/x/..;/internal, /a/x/..;/internal",
        "/a/internal%2fy, /a/internal%2Fy",
        "/a/internal%5cy/./z, /a/internal%5Cy/z",
        "/a/internal/..%2F.., /a/internal/..%2F.."
    })
    void keepsParametersAndEscapedSlashesInTheirSegmentWhenAsked(String target, String normal) {
        assertThat(KEEPING.normalize(target)).isEqualTo(normal);
        assertThat(KEEPING.normalize(normal)).isSameAs(normal);
    }

    @Test
    void redirectsToTheUnescapedPathWithTheQueryWhenAsked() {
        TargetNormalizer redirecting =
                normalizer(EscapedSlashAction.UNESCAPE_AND_REDIRECT, PathParameterAction.REJECT_REQUEST);

        assertThatThrownBy(() -> redirecting.normalize("/a/internal%2Fy?q=%2F"))
                .isInstanceOfSatisfying(PathRedirect.class, redirect -> assertThat(redirect.location())
                        .isEqualTo("/a/internal/y?q=%2F"));
        assertThat(redirecting.normalize("/a/./internal")).isEqualTo("/a/internal");
        assertThatThrownBy(() -> redirecting.normalize("/a%2Fb?q=\u0001"))
                .isInstanceOf(IllegalArgumentException.class)
                .isNotInstanceOf(PathRedirect.class);
    }

    @Test
    void namesWhatItRefusedInItsMessage() {
        assertThatThrownBy(() -> DEFAULTS.normalize("/a/internal%2Fy"))
                .hasMessage("encoded slash or backslash in the path");
        assertThatThrownBy(() -> DEFAULTS.normalize("/a;b")).hasMessage("a ';' parameter in the path");
        assertThatThrownBy(() -> DEFAULTS.normalize("/a%zz")).hasMessage("invalid percent-encoding in the path");
        assertThatThrownBy(() -> DEFAULTS.normalize("/a%00"))
                .hasMessage("a percent-encoded control character in the path");
        assertThatThrownBy(() -> DEFAULTS.normalize("/../a")).hasMessage("the path climbs above the root");
        assertThatThrownBy(() -> DEFAULTS.normalize("/%C0%AF"))
                .hasMessage("percent-encoded bytes that are not UTF-8 in the path");
    }

    private static TargetNormalizer normalizer(EscapedSlashAction slashes, PathParameterAction parameters) {
        return new TargetNormalizer(PathNormalization.builder()
                .escapedSlashes(slashes)
                .pathParameters(parameters)
                .build());
    }
}
