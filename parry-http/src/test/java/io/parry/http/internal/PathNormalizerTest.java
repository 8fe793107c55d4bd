package io.parry.http.internal;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.params.provider.ValueSource;

class PathNormalizerTest {

    /** RFC 3986, section 5.2.4, and its section 5.4 examples, read as absolute paths. */
    @ParameterizedTest
    @CsvSource({
        "/a/b/c/./../../g, /a/g",
        "/../x, /x",
        "/a/.., /",
        "/a/b/c/../../../../g, /g",
        "/a/./b, /a/b",
        "/./a, /a",
        "/., /",
        "/.., /",
        "/a/b/.., /a/",
        "/a/b/c/.., /a/b/",
        "/a/b/c/../.., /a/",
        "/a/b/., /a/b/",
        "/a/./b/, /a/b/",
        "/a/../b/./c/, /b/c/",
        "/a//../b, /b"
    })
    void removesDotSegments(String path, String expected) {
        assertThat(PathNormalizer.normalize(path)).isEqualTo(expected);
    }

    @ParameterizedTest
    @CsvSource({"/a/%2e%2e/b, /b", "/a/%2E%2e, /", "/a/.%2e/b, /b", "/a/%2e/b, /a/b", "/%2e%2e/%2e%2e/etc, /etc"})
    void treatsEncodedDotsAsDots(String path, String expected) {
        assertThat(PathNormalizer.normalize(path)).isEqualTo(expected);
    }

    @ParameterizedTest
    @CsvSource({"/a%2Fb, /a%2Fb", "/a%2fb, /a%2Fb", "/a%2F..%2Fb, /a%2F..%2Fb", "/%3f%23, /%3F%23", "/%20, /%20"})
    void keepsReservedAndOtherEscapesEncoded(String path, String expected) {
        assertThat(PathNormalizer.normalize(path)).isEqualTo(expected);
    }

    @ParameterizedTest
    @CsvSource({"/%41%42c, /ABc", "/%7e%7E, /~~", "/a%2Db%5Fc, /a-b_c", "/%30%39%61%7A, /09az"})
    void decodesEscapedUnreservedCharacters(String path, String expected) {
        assertThat(PathNormalizer.normalize(path)).isEqualTo(expected);
    }

    @ParameterizedTest
    @CsvSource({"/%252e%252e/x, /%252e%252e/x", "/a/%25/.., /a/"})
    void decodesOnlyOnce(String path, String expected) {
        assertThat(PathNormalizer.normalize(path)).isEqualTo(expected);
    }

    @ParameterizedTest
    @ValueSource(strings = {"/", "/a/b/c", "/a.b/c..d/.e/f.", "/a/.../b", "/..a/b..", "/a/b/"})
    void returnsPathsWithoutEscapesDotSegmentsOrDoubleSlashesAsTheSameInstance(String path) {
        String copy = new String(path);

        assertThat(PathNormalizer.normalize(copy)).isSameAs(copy);
    }

    @Test
    void mergesRunsOfSlashesSoNoSegmentStartsWithASlash() {
        assertThat(PathNormalizer.normalize("/files//etc/passwd")).isEqualTo("/files/etc/passwd");
        assertThat(PathNormalizer.normalize("//a///b//")).isEqualTo("/a/b/");
        assertThat(PathNormalizer.normalize("/a/%2e%2e//b")).isEqualTo("/b");
    }
}
