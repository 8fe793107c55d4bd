package io.parry.it;

import static org.assertj.core.api.Assertions.assertThat;

import io.parry.http.HttpBody;
import io.parry.http.HttpHeaders;
import io.parry.http.HttpResponse;
import io.parry.http.HttpStatus;
import io.parry.server.Handler;
import io.parry.server.Rejection;
import io.parry.server.ServerTimeouts;
import io.parry.testing.RawConnection;
import io.parry.testing.RawResponse;
import io.parry.testing.ServerExtension;
import java.time.Duration;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

class TimeoutsTest {
    private static final AtomicReference<EndlessBody> endless = new AtomicReference<>();

    private static final Handler HANDLER = (ctx, request) -> {
        switch (request.path()) {
            case "/endless":
                EndlessBody body = new EndlessBody();
                endless.set(body);
                return HttpResponse.of(HttpStatus.OK, HttpHeaders.empty(), HttpBody.of(body))
                        .toStage();
            case "/never":
                return new CompletableFuture<>();
            case "/aggregate":
                return request.body().aggregate(1 << 20).thenApply(data -> HttpResponse.ofText("got it"));
            case "/answers-its-failure":
                // As a proxy does when the body it forwards fails: an answer of its own (502 there).
                return request.body()
                        .aggregate(1 << 20)
                        .handle((data, failure) -> HttpResponse.of(HttpStatus.of(failure == null ? 200 : 502)));
            default:
                return HttpResponse.ofText("ok").toStage();
        }
    };

    @RegisterExtension
    static final ServerExtension server = ServerExtension.of(
            HANDLER,
            options -> options.timeouts(ServerTimeouts.builder()
                    .headerRead(Duration.ofMillis(300))
                    .idle(Duration.ofMillis(500))
                    .request(Duration.ofMillis(400))
                    .write(Duration.ofMillis(500))
                    .build()));

    @Test
    void answersASlowHeaderBlockWith408AndCloses() {
        long before = server.server().rejections(Rejection.HEADER_READ_TIMEOUT);
        try (RawConnection connection = server.connect()) {
            connection.sendExactly("GET / HTTP/1.1\r\nHost: a\r\nX-Slow: ");
            RawResponse response = connection.readResponse();

            assertThat(response.status()).isEqualTo(408);
            assertThat(connection.isClosedByPeer()).isTrue();
        }
        assertThat(server.server().rejections(Rejection.HEADER_READ_TIMEOUT)).isEqualTo(before + 1);
    }

    @Test
    void closesAnIdleKeepAliveConnection() {
        try (RawConnection connection = server.connect()) {
            connection.send("GET / HTTP/1.1\nHost: a\n\n");
            assertThat(connection.readResponse().status()).isEqualTo(200);

            assertThat(connection.isClosedByPeer()).isTrue();
        }
    }

    @Test
    void answersAHandlerThatNeverAnswersWith503() {
        long before = server.server().rejections(Rejection.REQUEST_TIMEOUT);
        try (RawConnection connection = server.connect()) {
            connection.send("GET /never HTTP/1.1\nHost: a\n\n");
            RawResponse response = connection.readResponse();

            assertThat(response.status()).isEqualTo(503);
            assertThat(response.header("connection")).isEqualToIgnoringCase("close");
        }
        assertThat(server.server().rejections(Rejection.REQUEST_TIMEOUT)).isEqualTo(before + 1);
    }

    @Test
    void answersABodyThatStopsArrivingWith408() {
        try (RawConnection connection = server.connect()) {
            connection.sendExactly("POST /aggregate HTTP/1.1\r\nHost: a\r\nContent-Length: 10\r\n\r\nabc");
            RawResponse response = connection.readResponse();

            assertThat(response.status()).isEqualTo(408);
            assertThat(connection.isClosedByPeer()).isTrue();
        }
    }

    @Test
    void answersABodyThatStopsArrivingWith408EvenWhenTheHandlerAnswersItsFailure() {
        try (RawConnection connection = server.connect()) {
            connection.sendExactly("POST /answers-its-failure HTTP/1.1\r\nHost: a\r\nContent-Length: 10\r\n\r\nabc");

            assertThat(connection.readResponse().status()).isEqualTo(408);
            assertThat(connection.isClosedByPeer()).isTrue();
        }
    }

    @Test
    void pausesTheProducerOfAnUnreadResponseAndClosesAtTheWriteTimeout() throws Exception {
        long before = server.server().rejections(Rejection.WRITE_TIMEOUT);
        try (RawConnection connection = server.connect()) {
            connection.send("GET /endless HTTP/1.1\nHost: a\n\n");

            EndlessBody body = awaitEndless();
            assertThat(body.cancelled.await(10, TimeUnit.SECONDS)).isTrue();
            // Only what fits in the socket buffers and the channel's watermark was produced.
            assertThat(body.published.get() * EndlessBody.CHUNK).isLessThan(64L * 1024 * 1024);
        }
        assertThat(server.server().rejections(Rejection.WRITE_TIMEOUT)).isEqualTo(before + 1);
    }

    private static EndlessBody awaitEndless() throws InterruptedException {
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(5);
        while (endless.get() == null && System.nanoTime() < deadline) {
            Thread.onSpinWait();
        }
        assertThat(endless.get()).isNotNull();
        return endless.get();
    }
}
