package io.parry.protection;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.parry.http.HttpBody;
import io.parry.http.HttpData;
import io.parry.http.HttpHeaders;
import io.parry.http.HttpMethod;
import io.parry.http.HttpRequest;
import io.parry.http.HttpResponse;
import io.parry.http.HttpStatus;
import io.parry.http.MediaType;
import io.parry.server.Handler;
import io.parry.testing.HandlerTester;
import io.parry.testing.TestResponse;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import org.junit.jupiter.api.Test;

class CompressionFilterTest {
    private static final String JSON = Gzip.json(8 * 1024);

    @Test
    void compressesAJsonBodyWithGzipAndMarksTheResponse() {
        Handler handler = Handler.sync((ctx, request) -> HttpResponse.builder(HttpStatus.OK)
                .header("etag", "\"v1\"")
                .header("content-length", String.valueOf(JSON.length()))
                .body(MediaType.JSON, HttpData.ofUtf8(JSON))
                .build());
        try (HandlerTester tester = HandlerTester.of(handler.with(CompressionFilter.ofDefault()))) {
            TestResponse response = tester.send(get("gzip, deflate, br"));

            assertThat(response.header("content-encoding")).isEqualTo("gzip");
            assertThat(response.header("vary")).isEqualTo("accept-encoding");
            assertThat(response.header("etag")).isEqualTo("W/\"v1\"");
            assertThat(response.header("content-length")).isNull();
            assertThat(response.body().length).isLessThan(JSON.length() / 4);
            assertThat(Gzip.gunzip(response.body())).isEqualTo(JSON);
        }
    }

    @Test
    void compressesWithDeflateWhenTheClientPrefersIt() {
        CompressionFilter filter = CompressionFilter.builder()
                .encodings(List.of(ContentCoding.gzip(6), ContentCoding.deflate(6)))
                .build();
        try (HandlerTester tester = HandlerTester.of(json(JSON).with(filter))) {
            TestResponse response = tester.send(get("gzip;q=0.5, deflate"));

            assertThat(response.header("content-encoding")).isEqualTo("deflate");
            assertThat(Gzip.inflate(response.body())).isEqualTo(JSON);
        }
    }

    @Test
    void addsVaryButSendsTheBodyAsItIsToAClientThatAcceptsNoCoding() {
        Handler handler = Handler.sync((ctx, request) ->
                HttpResponse.of(MediaType.JSON, HttpData.ofUtf8(JSON)).withHeader("vary", "origin"));
        try (HandlerTester tester = HandlerTester.of(handler.with(CompressionFilter.ofDefault()))) {
            TestResponse response = tester.send(get(null));

            assertThat(response.header("content-encoding")).isNull();
            assertThat(response.headers("vary")).containsExactly("origin", "accept-encoding");
            assertThat(response.bodyText()).isEqualTo(JSON);
        }
    }

    @Test
    void leavesABodyUnderTheMinimumSizeUnlessIdentityIsRefused() {
        try (HandlerTester tester = HandlerTester.of(json("{\"small\":true}").with(CompressionFilter.ofDefault()))) {
            TestResponse small = tester.send(get("gzip"));
            TestResponse refused = tester.send(get("gzip, identity;q=0"));

            assertThat(small.header("content-encoding")).isNull();
            assertThat(small.header("vary")).isEqualTo("accept-encoding");
            assertThat(small.bodyText()).isEqualTo("{\"small\":true}");
            assertThat(refused.header("content-encoding")).isEqualTo("gzip");
            assertThat(Gzip.gunzip(refused.body())).isEqualTo("{\"small\":true}");
        }
    }

    @Test
    void neverCompressesABodyThatIsAlreadyEncoded() {
        byte[] gzipped = Gzip.gzip(JSON.getBytes(StandardCharsets.UTF_8));
        Handler handler = Handler.sync((ctx, request) -> HttpResponse.of(
                HttpStatus.OK,
                HttpHeaders.of("content-type", "application/json", "content-encoding", "gzip"),
                HttpBody.of(HttpData.wrap(gzipped))));
        try (HandlerTester tester = HandlerTester.of(handler.with(CompressionFilter.ofDefault()))) {
            TestResponse response = tester.send(get("gzip"));

            assertThat(response.body()).isEqualTo(gzipped);
            assertThat(response.header("vary")).isNull();
        }
    }

    @Test
    void leavesMediaTypesOutsideTheListAndNoTransformResponsesAlone() {
        Handler handler = Handler.sync((ctx, request) -> switch (request.path()) {
            case "/png" -> HttpResponse.of(MediaType.parse("image/png"), HttpData.ofUtf8(JSON));
            default -> HttpResponse.of(MediaType.JSON, HttpData.ofUtf8(JSON))
                    .withHeader("cache-control", "max-age=60, no-transform");
        });
        try (HandlerTester tester = HandlerTester.of(handler.with(CompressionFilter.ofDefault()))) {
            for (String path : List.of("/png", "/no-transform")) {
                TestResponse response = tester.send(get(path, "gzip"));

                assertThat(response.header("content-encoding")).as(path).isNull();
                assertThat(response.bodyText()).as(path).isEqualTo(JSON);
            }
        }
    }

    @Test
    void matchesMediaTypesIgnoringParametersAndCase() {
        Handler handler = Handler.sync(
                (ctx, request) -> HttpResponse.of(MediaType.parse("Text/HTML; charset=utf-8"), HttpData.ofUtf8(JSON)));
        try (HandlerTester tester = HandlerTester.of(handler.with(CompressionFilter.ofDefault()))) {
            assertThat(tester.send(get("gzip")).header("content-encoding")).isEqualTo("gzip");
        }
    }

    @Test
    void givesAHeadRequestTheHeadItsGetWouldHave() {
        Handler handler = Handler.sync((ctx, request) -> HttpResponse.builder(HttpStatus.OK)
                .header("etag", "\"v1\"")
                .body(MediaType.JSON, HttpData.ofUtf8(JSON))
                .build());
        try (HandlerTester tester = HandlerTester.of(handler.with(CompressionFilter.ofDefault()))) {
            TestResponse get = tester.send(get("gzip"));
            TestResponse head = tester.send(HttpRequest.builder(HttpMethod.HEAD, "/")
                    .header("accept-encoding", "gzip")
                    .build());

            assertThat(head.header("content-encoding")).isEqualTo(get.header("content-encoding"));
            assertThat(head.header("vary")).isEqualTo(get.header("vary")).isEqualTo("accept-encoding");
            assertThat(head.header("etag")).isEqualTo(get.header("etag")).isEqualTo("W/\"v1\"");
            assertThat(head.header("content-length")).isNull();
        }
    }

    @Test
    void leavesResponsesWithoutContentAlone() {
        Handler handler = Handler.sync((ctx, request) -> switch (request.path()) {
            case "/204" -> HttpResponse.of(HttpStatus.NO_CONTENT);
            case "/304" -> HttpResponse.of(
                    HttpStatus.NOT_MODIFIED, HttpHeaders.of("content-type", "application/json"), HttpBody.empty());
            default -> HttpResponse.of(MediaType.JSON, HttpData.ofUtf8(JSON));
        });
        try (HandlerTester tester = HandlerTester.of(handler.with(CompressionFilter.ofDefault()))) {
            for (String path : List.of("/204", "/304")) {
                TestResponse response = tester.send(get(path, "gzip"));
                assertThat(response.header("content-encoding")).as(path).isNull();
                assertThat(response.header("vary")).as(path).isNull();
            }
        }
    }

    @Test
    void compressesAStreamedBodyAndKeepsItsTrailers() {
        Handler handler = Handler.sync((ctx, request) -> HttpResponse.of(
                HttpStatus.OK,
                HttpHeaders.of("content-type", "text/plain"),
                HttpBody.of(
                        Chunks.of(JSON, "", "middle", JSON),
                        CompletableFuture.completedFuture(HttpHeaders.of("x-checksum", "42")))));
        try (HandlerTester tester = HandlerTester.of(handler.with(CompressionFilter.ofDefault()))) {
            TestResponse response = tester.send(get("gzip"));

            assertThat(response.header("content-encoding")).isEqualTo("gzip");
            assertThat(Gzip.gunzip(response.body())).isEqualTo(JSON + "middle" + JSON);
            assertThat(response.trailers().get("x-checksum")).isEqualTo("42");
        }
    }

    @Test
    void leavesEventStreamsAloneUnlessAskedToCompressThem() {
        Handler handler = Handler.sync((ctx, request) -> HttpResponse.of(
                HttpStatus.OK,
                HttpHeaders.of("content-type", "text/event-stream"),
                HttpBody.of(Chunks.of("data: one\n\n", "data: two\n\n"))));
        try (HandlerTester plain = HandlerTester.of(handler.with(CompressionFilter.ofDefault()));
                HandlerTester compressing = HandlerTester.of(handler.with(
                        CompressionFilter.builder().eventStreams(true).build()))) {
            TestResponse untouched = plain.send(get("gzip"));
            TestResponse compressed = compressing.send(get("gzip"));

            assertThat(untouched.header("content-encoding")).isNull();
            assertThat(untouched.bodyText()).isEqualTo("data: one\n\ndata: two\n\n");
            assertThat(compressed.header("content-encoding")).isEqualTo("gzip");
            assertThat(Gzip.gunzip(compressed.body())).isEqualTo("data: one\n\ndata: two\n\n");
        }
    }

    @Test
    void refusesSettingsOutsideTheirRange() {
        assertThatThrownBy(() -> ContentCoding.gzip(0)).hasMessage("level: 0 (expected: 1 to 9)");
        assertThatThrownBy(() -> CompressionFilter.builder().minSize(-1).build())
                .hasMessage("minSize: -1 (expected: >= 0)");
        assertThatThrownBy(
                        () -> CompressionFilter.builder().encodings(List.of()).build())
                .hasMessage("encodings: [] (expected: at least one coding)");
        assertThatThrownBy(() -> CompressionFilter.builder()
                        .encodings(List.of(ContentCoding.gzip(1), ContentCoding.gzip(9)))
                        .build())
                .hasMessage("encodings: [gzip(level 1), gzip(level 9)] (expected: each coding once)");
        assertThatThrownBy(() -> CompressionFilter.builder()
                        .contentTypes(List.of("json"))
                        .build())
                .hasMessageStartingWith("contentTypes: json (expected: a media type");
        CompressionFilter filter = CompressionFilter.builder()
                .encodings(List.of(ContentCoding.gzip(1)))
                .build();
        assertThat(filter.toBuilder().build()).isEqualTo(filter).hasSameHashCodeAs(filter);
    }

    private static Handler json(String text) {
        return Handler.sync((ctx, request) -> HttpResponse.of(MediaType.JSON, HttpData.ofUtf8(text)));
    }

    private static HttpRequest get(String acceptEncoding) {
        return get("/", acceptEncoding);
    }

    private static HttpRequest get(String path, String acceptEncoding) {
        HttpRequest.Builder request = HttpRequest.builder(HttpMethod.GET, path);
        if (acceptEncoding != null) {
            request.header("accept-encoding", acceptEncoding);
        }
        return request.build();
    }
}
