package io.parry.server.routing.internal;

import static org.assertj.core.api.Assertions.assertThat;

import io.parry.http.MediaType;
import java.util.List;
import org.junit.jupiter.api.Test;

class MediaRangesTest {
    private static final MediaType JSON = MediaType.JSON;
    private static final MediaType HTML = MediaType.parse("text/html");

    @Test
    void usesTheQualityOfTheMostSpecificMatchingRange() {
        MediaRanges accept = MediaRanges.parseAccept("text/*;q=0.3, text/html;q=0.7, */*;q=0.1");

        assertThat(accept.quality(List.of(HTML))).isEqualTo(700);
        assertThat(accept.quality(List.of(MediaType.parse("text/plain")))).isEqualTo(300);
        assertThat(accept.quality(List.of(JSON))).isEqualTo(100);
    }

    @Test
    void treatsQZeroAsNotAcceptableEvenUnderAWildcard() {
        MediaRanges accept = MediaRanges.parseAccept("*/*, application/json;q=0");

        assertThat(accept.quality(List.of(JSON))).isZero();
        assertThat(accept.quality(List.of(JSON, HTML))).isEqualTo(1000);
    }

    @Test
    void acceptsAnythingWithoutAFieldOrWithOnlyUnreadableElements() {
        assertThat(MediaRanges.parseAccept(null).quality(List.of(JSON))).isEqualTo(1000);
        assertThat(MediaRanges.parseAccept("nonsense, a/b;q=2").quality(List.of(JSON)))
                .isEqualTo(1000);
    }

    @Test
    void sharesOneAnythingRangeForRequestsWithoutAnAcceptField() {
        assertThat(MediaRanges.parseAccept(null)).isSameAs(MediaRanges.parseAccept(null));
        assertThat(MediaRanges.parseAccept("*/*")).isSameAs(MediaRanges.parseAccept(null));
    }

    @Test
    void readsQValuesWithUpToThreeDecimals() {
        assertThat(MediaRanges.qvalue("1")).isEqualTo(1000);
        assertThat(MediaRanges.qvalue("0.5")).isEqualTo(500);
        assertThat(MediaRanges.qvalue("0.125")).isEqualTo(125);
        assertThat(MediaRanges.qvalue("1.000")).isEqualTo(1000);
        assertThat(MediaRanges.qvalue("1.5")).isEqualTo(-1);
        assertThat(MediaRanges.qvalue("0.1234")).isEqualTo(-1);
        assertThat(MediaRanges.qvalue("x")).isEqualTo(-1);
    }

    @Test
    void requiresTheRangesParametersToMatch() {
        MediaRanges accept = MediaRanges.parseAccept("text/plain;charset=utf-8");

        assertThat(accept.quality(List.of(MediaType.parse("text/plain; charset=UTF-8"))))
                .isEqualTo(1000);
        assertThat(accept.quality(List.of(MediaType.parse("text/plain")))).isZero();
    }

    @Test
    void matchesContentTypesAgainstWildcardsIgnoringExtraParameters() {
        assertThat(MediaRanges.contentTypeMatches(MediaType.parse("application/json; charset=utf-8"), List.of(JSON)))
                .isTrue();
        assertThat(MediaRanges.contentTypeMatches(MediaType.parse("text/csv"), List.of(MediaType.parse("text/*"))))
                .isTrue();
        assertThat(MediaRanges.contentTypeMatches(HTML, List.of(JSON))).isFalse();
    }
}
