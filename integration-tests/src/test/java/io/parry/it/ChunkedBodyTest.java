package io.parry.it;

import static org.assertj.core.api.Assertions.assertThat;

import io.parry.http.HttpBody;
import io.parry.http.HttpData;
import io.parry.http.HttpHeaders;
import io.parry.http.HttpResponse;
import io.parry.http.HttpStatus;
import io.parry.server.Handler;
import io.parry.testing.RawConnection;
import io.parry.testing.RawResponse;
import io.parry.testing.ServerExtension;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.SubmissionPublisher;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

class ChunkedBodyTest {
    private static final Handler HANDLER = (ctx, request) -> {
        switch (request.path()) {
            case "/trailers":
                HttpBody body = request.body();
                return body.aggregate(1 << 16)
                        .thenCombine(
                                body.trailers(),
                                (data, trailers) ->
                                        HttpResponse.ofText(data.toStringUtf8() + "|" + trailers.get("x-checksum")));
            case "/stream":
                return HttpResponse.of(
                                HttpStatus.OK, HttpHeaders.empty(), streamed(List.of("one,", "two,", "three"), null))
                        .toStage();
            case "/stream-trailers":
                return HttpResponse.of(
                                HttpStatus.OK,
                                HttpHeaders.empty(),
                                streamed(List.of("body"), HttpHeaders.of("x-digest", "abc")))
                        .toStage();
            default:
                return HttpResponse.of(HttpStatus.NOT_FOUND).toStage();
        }
    };

    @RegisterExtension
    static final ServerExtension server = ServerExtension.of(HANDLER);

    private static HttpBody streamed(List<String> parts, HttpHeaders trailers) {
        SubmissionPublisher<HttpData> publisher = new SubmissionPublisher<>();
        CompletableFuture.runAsync(() -> {
            while (publisher.getNumberOfSubscribers() == 0) {
                Thread.onSpinWait();
            }
            parts.forEach(part -> publisher.submit(HttpData.ofUtf8(part)));
            publisher.close();
        });
        return trailers == null
                ? HttpBody.of(publisher)
                : HttpBody.of(publisher, CompletableFuture.completedFuture(trailers));
    }

    @Test
    void readsAChunkedBodyWithExtensionsAndTrailers() {
        try (RawConnection connection = server.connect()) {
            connection.send("POST /trailers HTTP/1.1\nHost: a\nTransfer-Encoding: chunked\n\n"
                    + "5;name=value\nhello\n6\n world\n0\nX-Checksum: 42\n\n");
            RawResponse response = connection.readResponse();

            assertThat(response.status()).isEqualTo(200);
            assertThat(response.bodyText()).isEqualTo("hello world|42");
        }
    }

    @Test
    void readsTenThousandOneByteChunks() {
        try (RawConnection connection = server.connect()) {
            connection.send("POST /trailers HTTP/1.1\nHost: a\nTransfer-Encoding: chunked\n\n" + "1\na\n".repeat(10_000)
                    + "0\n\n");

            assertThat(connection.readResponse().bodyText()).isEqualTo("a".repeat(10_000) + "|null");
        }
    }

    @Test
    void readsChunksWithExtensionsOfUpTo16KiBInAll() {
        try (RawConnection connection = server.connect()) {
            connection.send("POST /trailers HTTP/1.1\nHost: a\nTransfer-Encoding: chunked\n\n"
                    + ("1;x=" + "y".repeat(150) + "\na\n").repeat(100) + "0\n\n");

            assertThat(connection.readResponse().bodyText()).isEqualTo("a".repeat(100) + "|null");
        }
    }

    @Test
    void streamsABodyOfUnknownLengthChunked() {
        try (RawConnection connection = server.connect()) {
            connection.send("GET /stream HTTP/1.1\nHost: a\n\n");
            RawResponse response = connection.readResponse();

            assertThat(response.header("transfer-encoding")).isEqualTo("chunked");
            assertThat(response.header("content-length")).isNull();
            assertThat(response.bodyText()).isEqualTo("one,two,three");
        }
    }

    @Test
    void sendsResponseTrailers() {
        try (RawConnection connection = server.connect()) {
            connection.send("GET /stream-trailers HTTP/1.1\nHost: a\n\n");
            RawResponse response = connection.readResponse();

            assertThat(response.bodyText()).isEqualTo("body");
            assertThat(response.trailer("x-digest")).isEqualTo("abc");
        }
    }

    @Test
    void endsAStreamedBodyByClosingOnHttp10() {
        try (RawConnection connection = server.connect()) {
            connection.send("GET /stream HTTP/1.0\nConnection: keep-alive\n\n");
            RawResponse response = connection.readResponse();

            assertThat(response.header("transfer-encoding")).isNull();
            assertThat(response.header("connection")).isEqualToIgnoringCase("close");
            assertThat(response.bodyText()).isEqualTo("one,two,three");
        }
    }
}
