package io.parry.client;

import static io.parry.client.Calls.await;
import static io.parry.client.Calls.failure;
import static io.parry.client.Calls.text;
import static org.assertj.core.api.Assertions.assertThat;

import io.netty.channel.uring.IoUring;
import io.parry.http.HttpBody;
import io.parry.http.HttpData;
import io.parry.http.HttpMethod;
import io.parry.http.HttpRequest;
import io.parry.http.HttpResponse;
import io.parry.transport.TransportKind;
import java.io.IOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.Flow;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.Test;

class FailureTest {
    private HttpClient client = HttpClient.builder()
            .options(ClientOptions.builder()
                    .eventLoopThreads(1)
                    .maxResponseHeadersSize(1024)
                    .build())
            .build();

    @AfterEach
    void closeClient() {
        client.close();
    }

    private static HttpRequest get() {
        return HttpRequest.of(HttpMethod.GET, "/");
    }

    /** Answers every request with these exact bytes, then waits for the client to close. */
    private static RawUpstream answering(String response) {
        return RawUpstream.start(connection -> {
            connection.readRequest();
            connection.send(response);
            connection.awaitClose();
        });
    }

    private Throwable callFailure(RawUpstream upstream) {
        Throwable failure = failure(client.send(upstream.endpoint(), get()));
        assertThat(client.poolStats(upstream.endpoint())).matches(PoolStats::isEmpty);
        return failure;
    }

    private Throwable bodyFailure(RawUpstream upstream) {
        HttpResponse response = await(client.send(upstream.endpoint(), get()));
        Throwable failure = failure(response.body().aggregate(1 << 20));
        assertThat(client.poolStats(upstream.endpoint())).matches(PoolStats::isEmpty);
        return failure;
    }

    @Test
    void failsWithUpstreamConnectWhenTheConnectionIsRefused() throws IOException {
        int port;
        try (ServerSocket socket = new ServerSocket()) {
            socket.bind(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0));
            port = socket.getLocalPort();
        }
        Endpoint endpoint = Endpoint.of("127.0.0.1", port);

        Throwable failure = failure(client.send(endpoint, get()));

        assertThat(failure).isInstanceOf(UpstreamConnectException.class).hasMessageContaining("127.0.0.1:" + port);
        assertThat(((ClientException) failure).requestSent()).isFalse();
        assertThat(client.poolStats(endpoint)).matches(PoolStats::isEmpty);
    }

    @Test
    void failsWithUpstreamConnectWhenTheNameDoesNotResolve() {
        Throwable failure = failure(client.send(Endpoint.of("no-such-host.invalid", 80), get()));

        assertThat(failure).isInstanceOf(UpstreamConnectException.class).hasMessageContaining("no-such-host.invalid");
        assertThat(((ClientException) failure).requestSent()).isFalse();
    }

    @Test
    void failsTheBodyWhenTheUpstreamResetsMidBody() {
        try (RawUpstream upstream = RawUpstream.start(connection -> {
            connection.readRequest();
            connection.send("HTTP/1.1 200 OK\nContent-Length: 100\n\nonly ten..");
            Thread.sleep(50);
            connection.reset();
        })) {
            Throwable failure = bodyFailure(upstream);

            assertThat(failure).isInstanceOf(ConnectionClosedException.class);
            assertThat(((ClientException) failure).requestSent()).isTrue();
        }
    }

    @Test
    void failsTheBodyInsteadOfEndingItWhenTheUpstreamClosesMidBody() {
        try (RawUpstream upstream = RawUpstream.start(connection -> {
            connection.readRequest();
            connection.send("HTTP/1.1 200 OK\nContent-Length: 100\n\nonly ten..");
        })) {
            assertThat(bodyFailure(upstream)).isInstanceOf(ConnectionClosedException.class);
        }
    }

    @Test
    void failsAChunkedBodyInsteadOfEndingItWhenTheUpstreamClosesMidBody() {
        try (RawUpstream upstream = RawUpstream.start(connection -> {
            connection.readRequest();
            connection.send("HTTP/1.1 200 OK\nTransfer-Encoding: chunked\n\n5\nhello\n");
        })) {
            assertThat(bodyFailure(upstream)).isInstanceOf(ConnectionClosedException.class);
        }
    }

    @Test
    void failsWithConnectionClosedWhenTheUpstreamClosesBeforeAnswering() {
        try (RawUpstream upstream = RawUpstream.start(UpstreamConnection::readRequest)) {
            Throwable failure = callFailure(upstream);

            assertThat(failure).isInstanceOf(ConnectionClosedException.class);
            assertThat(((ClientException) failure).requestSent()).isTrue();
        }
    }

    @Test
    void countsTheRequestAsSentWhenTheUpstreamResetsAfterReadingItsHead() throws Exception {
        CountDownLatch headRead = new CountDownLatch(1);
        try (RawUpstream upstream = RawUpstream.start(connection -> {
            connection.readHead();
            headRead.countDown();
            connection.reset();
        })) {
            // Far more than socket buffers hold, so the write is cut off part way.
            HttpRequest upload = HttpRequest.builder(HttpMethod.POST, "/")
                    .body(HttpBody.of(HttpData.wrap(new byte[32 << 20])))
                    .build();

            Throwable failure = failure(client.send(upstream.endpoint(), upload));

            assertThat(headRead.await(10, TimeUnit.SECONDS)).isTrue();
            assertThat(failure).isInstanceOf(ConnectionClosedException.class);
            assertThat(((ClientException) failure).requestSent())
                    .as("the upstream read the head, so a POST must not be sent again")
                    .isTrue();
            assertThat(client.poolStats(upstream.endpoint())).matches(PoolStats::isEmpty);
        }
    }

    @Test
    void failsWithInvalidResponseOnGarbage() {
        try (RawUpstream upstream = answering("SSH-2.0-OpenSSH_9.6\n\n")) {
            Throwable failure = callFailure(upstream);

            assertThat(failure).isInstanceOf(InvalidResponseException.class);
            assertThat(((ClientException) failure).requestSent()).isTrue();
        }
    }

    @Test
    void failsWithInvalidResponseOnAStatusOutOfRange() {
        try (RawUpstream upstream = answering("HTTP/1.1 700 Odd\nContent-Length: 0\n\n")) {
            assertThat(callFailure(upstream)).isInstanceOf(InvalidResponseException.class);
        }
    }

    @Test
    void failsWithInvalidResponseWhenBothContentLengthAndChunkedFrameTheBody() {
        try (RawUpstream upstream =
                answering("HTTP/1.1 200 OK\nContent-Length: 5\nTransfer-Encoding: chunked\n\n5\nhello\n0\n\n")) {
            assertThat(callFailure(upstream)).isInstanceOf(InvalidResponseException.class);
        }
    }

    @Test
    void failsWithInvalidResponseWhenTheHeadIsTooLarge() {
        try (RawUpstream upstream =
                answering("HTTP/1.1 200 OK\nX-Big: " + "a".repeat(2000) + "\nContent-Length: 0\n\n")) {
            assertThat(callFailure(upstream)).isInstanceOf(InvalidResponseException.class);
        }
    }

    @Test
    void failsWithInvalidResponseOnAControlCharacterInAHeaderValue() {
        try (RawUpstream upstream = answering("HTTP/1.1 200 OK\nX-Bad: a\u0001b\nContent-Length: 0\n\n")) {
            assertThat(callFailure(upstream)).isInstanceOf(InvalidResponseException.class);
        }
    }

    @Test
    void failsTheBodyWithInvalidResponseOnABadChunkSize() {
        try (RawUpstream upstream =
                answering("HTTP/1.1 200 OK\nTransfer-Encoding: chunked\n\n5\nhello\nzz\nworld\n0\n\n")) {
            assertThat(bodyFailure(upstream)).isInstanceOf(InvalidResponseException.class);
        }
    }

    @Test
    void refusesToSwitchProtocols() {
        try (RawUpstream upstream = answering("HTTP/1.1 101 Switching Protocols\nUpgrade: websocket\n\n")) {
            assertThat(callFailure(upstream))
                    .isInstanceOf(InvalidResponseException.class)
                    .hasMessageContaining("101");
        }
    }

    @Test
    void skipsInterimResponsesBeforeTheFinalOne() {
        try (RawUpstream upstream = answering("HTTP/1.1 100 Continue\n\nHTTP/1.1 103 Early Hints\nLink: </a>\n\n"
                + "HTTP/1.1 200 OK\nContent-Length: 2\n\nok")) {
            HttpResponse response = await(client.send(upstream.endpoint(), get()));

            assertThat(response.status().code()).isEqualTo(200);
            assertThat(response.headers().contains("link")).isFalse();
            assertThat(text(response)).isEqualTo("ok");
        }
    }

    @Test
    void closesTheUpstreamConnectionAndFailsTheCallWhenTheRequestBodyFails() throws Exception {
        closesTheUpstreamConnectionWhenTheRequestBodyFails(client);
    }

    /** On io_uring the body fails while the connect listener runs, unless the pool hears of it later. */
    @Test
    void closesTheUpstreamConnectionWhenTheRequestBodyFailsOnIoUring() throws Exception {
        Assumptions.assumeTrue(IoUring.isAvailable(), "io_uring is not available");
        HttpClient ioUring = HttpClient.builder()
                .options(ClientOptions.builder()
                        .eventLoopThreads(1)
                        .transport(TransportKind.IO_URING)
                        .build())
                .build();
        try {
            closesTheUpstreamConnectionWhenTheRequestBodyFails(ioUring);
        } finally {
            ioUring.close();
        }
    }

    private static void closesTheUpstreamConnectionWhenTheRequestBodyFails(HttpClient client) throws Exception {
        CountDownLatch closed = new CountDownLatch(1);
        try (RawUpstream upstream = RawUpstream.start(connection -> {
            connection.readHead();
            if (connection.awaitClose()) {
                closed.countDown();
            }
        })) {
            HttpRequest upload = HttpRequest.builder(HttpMethod.POST, "/")
                    .body(HttpBody.of(new FailingPublisher()))
                    .build();

            Throwable failure = failure(client.send(upstream.endpoint(), upload));

            assertThat(failure).isInstanceOf(RequestBodyException.class).hasMessageContaining("client went away");
            assertThat(((ClientException) failure).requestSent()).isTrue();
            assertThat(closed.await(10, TimeUnit.SECONDS)).isTrue();
            assertThat(client.poolStats(upstream.endpoint())).matches(PoolStats::isEmpty);
        }
    }

    @Test
    void failsACallWhoseBodyIsLongerThanItsDeclaredLength() {
        try (RawUpstream upstream = RawUpstream.start(connection -> {
            connection.readHead();
            connection.awaitClose();
        })) {
            HttpRequest upload = HttpRequest.builder(HttpMethod.POST, "/")
                    .body(HttpBody.of(GeneratedBody.of("four", "more"), 4))
                    .build();

            assertThat(failure(client.send(upstream.endpoint(), upload)))
                    .isInstanceOf(RequestBodyException.class)
                    .hasMessageContaining("declared 4");
        }
    }

    /** Publishes one chunk, then fails as a body from a departed client does. */
    private static final class FailingPublisher implements Flow.Publisher<HttpData> {
        @Override
        public void subscribe(Flow.Subscriber<? super HttpData> subscriber) {
            subscriber.onSubscribe(new Flow.Subscription() {
                private boolean sent;

                @Override
                public void request(long n) {
                    if (!sent) {
                        sent = true;
                        subscriber.onNext(HttpData.ofUtf8("partial"));
                    } else {
                        subscriber.onError(new IOException("the client went away"));
                    }
                }

                @Override
                public void cancel() {}
            });
        }
    }
}
