package io.parry.http;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.params.provider.ValueSource;

class HttpStatusTest {

    @Test
    void ofReturnsTheConstantsForKnownCodes() {
        assertThat(HttpStatus.of(200)).isSameAs(HttpStatus.OK);
        assertThat(HttpStatus.of(404)).isSameAs(HttpStatus.NOT_FOUND);
        assertThat(HttpStatus.of(431)).isSameAs(HttpStatus.REQUEST_HEADER_FIELDS_TOO_LARGE);
        assertThat(HttpStatus.of(505)).isSameAs(HttpStatus.HTTP_VERSION_NOT_SUPPORTED);
    }

    @Test
    void knownCodesHaveTheirReasonPhrase() {
        assertThat(HttpStatus.CONTENT_TOO_LARGE.code()).isEqualTo(413);
        assertThat(HttpStatus.CONTENT_TOO_LARGE.reasonPhrase()).isEqualTo("Content Too Large");
        assertThat(HttpStatus.NOT_FOUND).hasToString("404 Not Found");
    }

    @ParameterizedTest
    @CsvSource({
        "199, Informational",
        "299, Success",
        "399, Redirection",
        "418, Client Error",
        "599, Server Error",
        "600, Unknown",
        "999, Unknown"
    })
    void unknownCodesGetThePhraseOfTheirClass(int code, String phrase) {
        HttpStatus status = HttpStatus.of(code);

        assertThat(status.code()).isEqualTo(code);
        assertThat(status.reasonPhrase()).isEqualTo(phrase);
    }

    @Test
    void unknownCodesAreEqualByCode() {
        assertThat(HttpStatus.of(299)).isEqualTo(HttpStatus.of(299)).isNotEqualTo(HttpStatus.of(298));
        assertThat(HttpStatus.of(299).hashCode()).isEqualTo(HttpStatus.of(299).hashCode());
    }

    @ParameterizedTest
    @ValueSource(ints = {Integer.MIN_VALUE, -200, 0, 99, 1000, Integer.MAX_VALUE})
    void ofRejectsCodesOutsideTheRange(int code) {
        assertThatThrownBy(() -> HttpStatus.of(code))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessage("code: " + code + " (expected: 100 to 999)");
    }

    @Test
    void ofAcceptsTheBoundsOfTheRange() {
        assertThat(HttpStatus.of(100)).isSameAs(HttpStatus.CONTINUE);
        assertThat(HttpStatus.of(999).code()).isEqualTo(999);
    }

    @ParameterizedTest
    @ValueSource(ints = {100, 101, 103, 199, 204, 304})
    void forbidsBodyForInformationalNoContentAndNotModified(int code) {
        assertThat(HttpStatus.of(code).forbidsBody()).isTrue();
    }

    @ParameterizedTest
    @ValueSource(ints = {200, 201, 205, 206, 301, 302, 303, 400, 404, 500})
    void allowsBodyForOtherStatuses(int code) {
        assertThat(HttpStatus.of(code).forbidsBody()).isFalse();
    }

    @Test
    void informationalMeansOneHundredToOneNinetyNine() {
        assertThat(HttpStatus.CONTINUE.isInformational()).isTrue();
        assertThat(HttpStatus.of(199).isInformational()).isTrue();
        assertThat(HttpStatus.OK.isInformational()).isFalse();
    }
}
