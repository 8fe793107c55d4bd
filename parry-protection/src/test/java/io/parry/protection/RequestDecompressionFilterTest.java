package io.parry.protection;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.parry.http.ContentTooLargeException;
import io.parry.http.HttpBody;
import io.parry.http.HttpData;
import io.parry.http.HttpMethod;
import io.parry.http.HttpRequest;
import io.parry.http.HttpResponse;
import io.parry.server.Handler;
import io.parry.testing.HandlerTester;
import io.parry.testing.TestResponse;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.Flow;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import java.util.zip.Deflater;
import java.util.zip.DeflaterOutputStream;
import org.junit.jupiter.api.Test;

class RequestDecompressionFilterTest {
    private static final String JSON = Gzip.json(64 * 1024);
    private static final Handler ECHO = (ctx, request) -> request.body()
            .aggregate(Long.MAX_VALUE)
            .thenApply(data -> HttpResponse.ofText(request.headers().get("content-encoding") + " "
                    + request.headers().get("content-length") + " " + data.toStringUtf8()));

    @Test
    void hidesTheCodingFromTheHandler() {
        try (HandlerTester tester = HandlerTester.of(ECHO.with(RequestDecompressionFilter.of(1 << 20)))) {
            TestResponse gzip = tester.send(post("gzip", Gzip.gzip(utf8(JSON))));
            TestResponse xGzip = tester.send(post("X-GZIP", Gzip.gzip(utf8("hello"))));
            TestResponse deflate = tester.send(post("deflate", deflate(utf8(JSON))));

            assertThat(gzip.bodyText()).isEqualTo("null null " + JSON);
            assertThat(xGzip.bodyText()).isEqualTo("null null hello");
            assertThat(deflate.bodyText()).isEqualTo("null null " + JSON);
        }
    }

    @Test
    void readsAGzipHeaderWithNameCommentExtraAndHeaderCrcSplitAcrossChunks() {
        byte[] plain = Gzip.gzip(utf8(JSON));
        byte[] header = {
            0x1f,
            (byte) 0x8b,
            8,
            2 | 4 | 8 | 16,
            0,
            0,
            0,
            0,
            0,
            3,
            3,
            0,
            'a',
            'b',
            'c',
            'f',
            '.',
            'j',
            's',
            'o',
            'n',
            0,
            'h',
            'i',
            0,
            0x12,
            0x34
        };
        byte[] body = new byte[header.length + plain.length - 10];
        System.arraycopy(header, 0, body, 0, header.length);
        System.arraycopy(plain, 10, body, header.length, plain.length - 10);
        try (HandlerTester tester = HandlerTester.of(ECHO.with(RequestDecompressionFilter.of(1 << 20)))) {
            TestResponse response = tester.send(HttpRequest.builder(HttpMethod.POST, "/")
                    .header("content-encoding", "gzip")
                    .body(HttpBody.of(new ByteChunks(body, 3)))
                    .build());

            assertThat(response.bodyText()).isEqualTo("null null " + JSON);
        }
    }

    @Test
    void refusesABombWith413() {
        byte[] bomb = Gzip.gzip(new byte[50 << 20]);
        try (HandlerTester tester = HandlerTester.of(ECHO.with(RequestDecompressionFilter.of(1 << 20)))) {
            TestResponse response = tester.send(post("gzip", bomb));

            assertThat(bomb.length).isLessThan(100 * 1024);
            assertThat(response.status()).isEqualTo(413);
        }
    }

    @Test
    void neverHandsOnMoreThanTheBoundOfABomb() throws Exception {
        byte[] bomb = Gzip.gzip(new byte[50 << 20]);
        RequestDecompressionFilter filter = RequestDecompressionFilter.of(100_000);
        CompletableFuture<Throwable> failure = new CompletableFuture<>();
        AtomicLong delivered = new AtomicLong();
        AtomicLong largest = new AtomicLong();
        Handler counting = (ctx, request) -> {
            request.body().subscribe(new Flow.Subscriber<>() {
                @Override
                public void onSubscribe(Flow.Subscription subscription) {
                    subscription.request(Long.MAX_VALUE);
                }

                @Override
                public void onNext(HttpData item) {
                    delivered.addAndGet(item.length());
                    largest.accumulateAndGet(item.length(), Math::max);
                }

                @Override
                public void onError(Throwable throwable) {
                    failure.complete(throwable);
                }

                @Override
                public void onComplete() {
                    failure.complete(null);
                }
            });
            return failure.thenApply(ignored -> HttpResponse.ofText("done"));
        };
        try (HandlerTester tester = HandlerTester.of(counting.with(filter))) {
            tester.send(HttpRequest.builder(HttpMethod.POST, "/")
                    .header("content-encoding", "gzip")
                    .body(HttpBody.of(new ByteChunks(bomb, 8192)))
                    .build());
        }

        assertThat(failure.get(5, TimeUnit.SECONDS)).isInstanceOf(ContentTooLargeException.class);
        assertThat(delivered.get()).isLessThanOrEqualTo(100_000);
        assertThat(largest.get()).isLessThanOrEqualTo(100_000);
    }

    @Test
    void refusesBrokenTruncatedAndTrailingDataWith400() {
        byte[] gzipped = Gzip.gzip(utf8(JSON));
        byte[] corrupt = gzipped.clone();
        corrupt[gzipped.length - 6] ^= 1; // the CRC
        byte[] trailing = Arrays.copyOf(gzipped, gzipped.length + 1);
        try (HandlerTester tester = HandlerTester.of(ECHO.with(RequestDecompressionFilter.of(1 << 20)))) {
            assertThat(tester.send(post("gzip", utf8("not gzip at all"))).status())
                    .isEqualTo(400);
            assertThat(tester.send(post("gzip", Arrays.copyOf(gzipped, gzipped.length / 2)))
                            .status())
                    .isEqualTo(400);
            assertThat(tester.send(post("gzip", Arrays.copyOf(gzipped, gzipped.length - 3)))
                            .status())
                    .isEqualTo(400);
            assertThat(tester.send(post("gzip", corrupt)).status()).isEqualTo(400);
            assertThat(tester.send(post("gzip", trailing)).status()).isEqualTo(400);
            assertThat(tester.send(post("deflate", utf8("xyz"))).status()).isEqualTo(400);
        }
    }

    @Test
    void decodesEachOfSeveralCodingsLastAppliedFirstInOneFieldOrSeveral() {
        byte[] twice = Gzip.gzip(deflate(utf8(JSON)));
        try (HandlerTester tester = HandlerTester.of(ECHO.with(RequestDecompressionFilter.of(1 << 20)))) {
            TestResponse oneField = tester.send(post("deflate, gzip", twice));
            TestResponse twoFields = tester.send(HttpRequest.builder(HttpMethod.POST, "/")
                    .header("content-encoding", "deflate")
                    .header("content-encoding", "gzip")
                    .body(HttpBody.of(HttpData.wrap(twice)))
                    .build());
            TestResponse gzipTwice = tester.send(post("gzip,gzip", Gzip.gzip(Gzip.gzip(utf8("hello")))));

            assertThat(oneField.bodyText()).isEqualTo("null null " + JSON);
            assertThat(twoFields.bodyText()).isEqualTo("null null " + JSON);
            assertThat(gzipTwice.bodyText()).isEqualTo("null null hello");
        }
    }

    @Test
    void refusesABombInsideABombWith413() {
        byte[] bomb = Gzip.gzip(Gzip.gzip(new byte[50 << 20]));
        try (HandlerTester tester = HandlerTester.of(ECHO.with(RequestDecompressionFilter.of(1 << 20)))) {
            TestResponse response = tester.send(post("gzip, gzip", bomb));

            assertThat(bomb.length).isLessThan(100 * 1024);
            assertThat(response.status()).isEqualTo(413);
        }
    }

    @Test
    void refusesMoreCodingsThanTheBoundWith415NamingThoseItReads() {
        byte[] thrice = Gzip.gzip(Gzip.gzip(Gzip.gzip(utf8("hello"))));
        try (HandlerTester tester = HandlerTester.of(ECHO.with(RequestDecompressionFilter.of(1 << 20)))) {
            TestResponse response = tester.send(post("gzip, gzip, gzip", thrice));

            assertThat(response.status()).isEqualTo(415);
            assertThat(response.headers().get("accept-encoding")).isEqualTo("gzip, deflate");
        }
    }

    @Test
    void passesOtherCodingsThrough() {
        try (HandlerTester tester = HandlerTester.of(ECHO.with(RequestDecompressionFilter.of(1 << 20)))) {
            TestResponse response = tester.send(post("br", utf8("opaque")));

            assertThat(response.bodyText()).isEqualTo("br 6 opaque");
        }
    }

    @Test
    void leavesARequestWithoutContentAlone() {
        try (HandlerTester tester = HandlerTester.of(ECHO.with(RequestDecompressionFilter.of(1 << 20)))) {
            TestResponse response = tester.send(HttpRequest.builder(HttpMethod.GET, "/")
                    .header("content-encoding", "gzip")
                    .build());

            assertThat(response.status()).isEqualTo(200);
            assertThat(response.bodyText()).isEqualTo("gzip null ");
        }
    }

    @Test
    void refusesABoundThatIsNotPositive() {
        assertThatThrownBy(() -> RequestDecompressionFilter.of(0)).hasMessage("maxSize: 0 (expected: > 0)");
    }

    private static HttpRequest post(String coding, byte[] body) {
        return HttpRequest.builder(HttpMethod.POST, "/")
                .header("content-encoding", coding)
                .header("content-length", String.valueOf(body.length))
                .body(HttpBody.of(HttpData.wrap(body)))
                .build();
    }

    private static byte[] utf8(String text) {
        return text.getBytes(StandardCharsets.UTF_8);
    }

    private static byte[] deflate(byte[] bytes) {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        try (DeflaterOutputStream deflater = new DeflaterOutputStream(out, new Deflater(6))) {
            deflater.write(bytes);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        return out.toByteArray();
    }

    /** A publisher of an array cut into chunks of this size, honouring demand. */
    private record ByteChunks(byte[] bytes, int size) implements Flow.Publisher<HttpData> {
        @Override
        public void subscribe(Flow.Subscriber<? super HttpData> subscriber) {
            subscriber.onSubscribe(new Flow.Subscription() {
                private int offset;
                private long demand;
                private boolean emitting;

                @Override
                public void request(long n) {
                    demand = Math.min(Long.MAX_VALUE - 1, demand + n);
                    if (emitting) {
                        return;
                    }
                    emitting = true;
                    while (demand > 0 && offset < bytes.length) {
                        demand--;
                        int length = Math.min(size, bytes.length - offset);
                        subscriber.onNext(HttpData.copyOf(Arrays.copyOfRange(bytes, offset, offset + length)));
                        offset += length;
                    }
                    if (offset == bytes.length) {
                        offset++;
                        subscriber.onComplete();
                    }
                    emitting = false;
                }

                @Override
                public void cancel() {
                    offset = bytes.length + 1;
                }
            });
        }
    }
}
