package io.parry.server.internal;

import static org.assertj.core.api.Assertions.assertThat;

import io.netty.handler.codec.DecoderResult;
import io.netty.handler.codec.TooLongFrameException;
import io.netty.handler.codec.http.DefaultHttpRequest;
import io.netty.handler.codec.http.HttpMethod;
import io.netty.handler.codec.http.HttpRequest;
import io.netty.handler.codec.http.HttpVersion;
import io.netty.handler.codec.http.TooLongHttpHeaderException;
import io.netty.handler.codec.http.TooLongHttpLineException;
import io.parry.http.HttpStatus;
import io.parry.server.Rejection;
import io.parry.server.RequestLimits;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

class RequestChecksTest {
    private static final RequestLimits LIMITS = RequestLimits.ofDefault();

    @Test
    void acceptsAnHttp11RequestWithOneHost() {
        HttpRequest request = request(HttpVersion.HTTP_1_1, "Host", "example.com:8080");

        assertThat(RequestChecks.check(request, LIMITS)).isNull();
        assertThat(host(true, "Host", "example.com:8080")).isNull();
    }

    @Test
    void refusesAnHttp11RequestWithoutHost() {
        RequestChecks.Refusal refusal = host(true);

        assertBadRequest(refusal);
        assertThat(refusal.what).contains("no Host");
    }

    @Test
    void refusesTwoHostFields() {
        RequestChecks.Refusal refusal = host(true, "Host", "a.example", "host", "b.example");

        assertBadRequest(refusal);
        assertThat(refusal.what).contains("more than one Host");
    }

    @Test
    void refusesTwoHostFieldsInHttp10Too() {
        assertBadRequest(host(false, "Host", "a", "Host", "a"));
    }

    @Test
    void hostIsOptionalInHttp10() {
        assertThat(host(false)).isNull();
        assertThat(host(false, "Host", "a")).isNull();
    }

    @ParameterizedTest
    @ValueSource(
            strings = {
                "a/b",
                "a?b",
                "a#b",
                "user@a",
                "a\\b",
                "a b",
                "caf\u00e9",
                "a:b",
                "a:80:81",
                "[::1",
                "[::1]x",
                "a\"b",
                "a<b"
            })
    void refusesAnImplausibleHost(String host) {
        RequestChecks.Refusal refusal = host(true, "Host", host);

        assertBadRequest(refusal);
        assertThat(refusal.what).contains("invalid Host");
    }

    @ParameterizedTest
    @ValueSource(
            strings = {
                "example.com",
                "example.com:80",
                "[::1]:8080",
                "[::1]",
                "127.0.0.1",
                "",
                "a:",
                "xn--caf-dma.example"
            })
    void acceptsAPlausibleHost(String host) {
        assertThat(host(true, "Host", host)).isNull();
    }

    @Test
    void refusesTransferEncodingInHttp10() {
        HttpRequest request = request(HttpVersion.HTTP_1_0, "Transfer-Encoding", "chunked");

        RequestChecks.Refusal refusal = RequestChecks.check(request, LIMITS);

        assertBadRequest(refusal);
        assertThat(refusal.what).contains("Transfer-Encoding");
    }

    @Test
    void acceptsTransferEncodingInHttp11() {
        assertThat(RequestChecks.check(
                        request(HttpVersion.HTTP_1_1, "Host", "a", "Transfer-Encoding", "chunked"), LIMITS))
                .isNull();
    }

    @Test
    void refusesMoreHeaderFieldsThanTheLimit() {
        RequestLimits limits = RequestLimits.builder().maxHeaderCount(2).build();
        HttpRequest request = request(HttpVersion.HTTP_1_1, "Host", "a", "x-a", "1", "x-a", "2");

        RequestChecks.Refusal refusal = RequestChecks.check(request, limits);

        assertThat(refusal).isNotNull();
        assertThat(refusal.status).isEqualTo(HttpStatus.REQUEST_HEADER_FIELDS_TOO_LARGE);
        assertThat(refusal.reason).isEqualTo(Rejection.HEADERS_TOO_LARGE);
    }

    @Test
    void acceptsExactlyTheHeaderFieldLimit() {
        RequestLimits limits = RequestLimits.builder().maxHeaderCount(2).build();

        assertThat(RequestChecks.check(request(HttpVersion.HTTP_1_1, "Host", "a", "x-a", "1"), limits))
                .isNull();
    }

    @Test
    void refusesAnUnsupportedVersion() {
        HttpRequest request = request(HttpVersion.valueOf("HTTP/1.2"), "Host", "a");

        RequestChecks.Refusal refusal = RequestChecks.check(request, LIMITS);

        assertThat(refusal).isNotNull();
        assertThat(refusal.status).isEqualTo(HttpStatus.HTTP_VERSION_NOT_SUPPORTED);
    }

    @Test
    void mapsATooLongRequestLineTo414() {
        RequestChecks.Refusal refusal =
                RequestChecks.decoderFailure(DecoderResult.failure(new TooLongHttpLineException("too long")));

        assertThat(refusal.status).isEqualTo(HttpStatus.URI_TOO_LONG);
        assertThat(refusal.reason).isEqualTo(Rejection.URI_TOO_LONG);
    }

    @Test
    void mapsATooLargeHeaderBlockTo431() {
        RequestChecks.Refusal refusal =
                RequestChecks.decoderFailure(DecoderResult.failure(new TooLongHttpHeaderException("too large")));

        assertThat(refusal.status).isEqualTo(HttpStatus.REQUEST_HEADER_FIELDS_TOO_LARGE);
        assertThat(refusal.reason).isEqualTo(Rejection.HEADERS_TOO_LARGE);
    }

    @Test
    void mapsAnotherTooLongFrameTo400() {
        RequestChecks.Refusal refusal =
                RequestChecks.decoderFailure(DecoderResult.failure(new TooLongFrameException("chunk")));

        assertBadRequest(refusal);
    }

    @Test
    void mapsAnyOtherDecoderFailureTo400WithItsMessage() {
        RequestChecks.Refusal refusal = RequestChecks.decoderFailure(
                DecoderResult.failure(new IllegalArgumentException("obsolete line folding")));

        assertBadRequest(refusal);
        assertThat(refusal.what).isEqualTo("obsolete line folding");
    }

    private static HttpRequest request(HttpVersion version, String... namesAndValues) {
        HttpRequest request = new DefaultHttpRequest(version, HttpMethod.GET, "/");
        for (int i = 0; i < namesAndValues.length; i += 2) {
            request.headers().add(namesAndValues[i], namesAndValues[i + 1]);
        }
        return request;
    }

    private static void assertBadRequest(RequestChecks.Refusal refusal) {
        assertThat(refusal).isNotNull();
        assertThat(refusal.status).isEqualTo(HttpStatus.BAD_REQUEST);
        assertThat(refusal.reason).isEqualTo(Rejection.BAD_REQUEST);
    }

    private static RequestChecks.Refusal host(boolean http11, String... namesAndValues) {
        return RequestChecks.checkHost(io.parry.http.HttpHeaders.of(namesAndValues), http11);
    }
}
