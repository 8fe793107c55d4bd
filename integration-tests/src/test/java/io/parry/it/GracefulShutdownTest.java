package io.parry.it;

import static org.assertj.core.api.Assertions.assertThat;

import io.parry.http.HttpResponse;
import io.parry.server.Handler;
import io.parry.server.Server;
import io.parry.testing.RawConnection;
import io.parry.testing.RawResponse;
import java.time.Duration;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

class GracefulShutdownTest {
    private final CountDownLatch handlerStarted = new CountDownLatch(1);
    private final CountDownLatch lateArrived = new CountDownLatch(1);
    private final CompletableFuture<HttpResponse> slowResponse = new CompletableFuture<>();
    private final Handler handler = (ctx, request) -> {
        if (request.path().equals("/slow")) {
            handlerStarted.countDown();
            return slowResponse;
        }
        if (request.path().equals("/late")) {
            lateArrived.countDown();
        }
        return HttpResponse.ofText("quick").toStage();
    };
    private final Server server =
            Server.builder().host("127.0.0.1").port(0).handler(handler).build().start();

    @AfterEach
    void stopServer() {
        server.stop(Duration.ZERO);
    }

    @Test
    void letsARequestInFlightFinishAndThenCloses() throws Exception {
        try (RawConnection connection = RawConnection.open("127.0.0.1", server.port())) {
            connection.send("GET /slow HTTP/1.1\nHost: a\n\n");
            assertThat(handlerStarted.await(5, TimeUnit.SECONDS)).isTrue();

            CompletableFuture<Void> stopped = CompletableFuture.runAsync(() -> server.stop(Duration.ofSeconds(10)));
            awaitDraining();
            slowResponse.complete(HttpResponse.ofText("finished"));
            RawResponse response = connection.readResponse();

            assertThat(response.bodyText()).isEqualTo("finished");
            assertThat(response.header("connection")).isEqualToIgnoringCase("close");
            assertThat(connection.isClosedByPeer()).isTrue();
            stopped.get(10, TimeUnit.SECONDS);
        }
    }

    @Test
    void closesIdleKeepAliveConnectionsAtOnce() throws Exception {
        try (RawConnection connection = RawConnection.open("127.0.0.1", server.port())) {
            connection.send("GET / HTTP/1.1\nHost: a\n\n");
            assertThat(connection.readResponse().status()).isEqualTo(200);

            long start = System.nanoTime();
            server.stop(Duration.ofSeconds(10));

            assertThat(connection.isClosedByPeer()).isTrue();
            assertThat(Duration.ofNanos(System.nanoTime() - start)).isLessThan(Duration.ofSeconds(5));
        }
    }

    @Test
    void answersARequestThatArrivesDuringTheDrainWithConnectionClose() throws Exception {
        try (RawConnection connection = RawConnection.open("127.0.0.1", server.port())) {
            connection.send("GET /slow HTTP/1.1\nHost: a\n\n");
            assertThat(handlerStarted.await(5, TimeUnit.SECONDS)).isTrue();
            CompletableFuture<Void> stopped = CompletableFuture.runAsync(() -> server.stop(Duration.ofSeconds(10)));
            awaitDraining();

            connection.send("GET /late HTTP/1.1\nHost: a\n\n");
            assertThat(lateArrived.await(5, TimeUnit.SECONDS)).isTrue();
            slowResponse.complete(HttpResponse.ofText("finished"));

            RawResponse first = connection.readResponse();
            RawResponse late = connection.readResponse();
            assertThat(first.bodyText()).isEqualTo("finished");
            assertThat(late.bodyText()).isEqualTo("quick");
            assertThat(late.header("connection")).isEqualToIgnoringCase("close");
            assertThat(connection.isClosedByPeer()).isTrue();
            stopped.get(10, TimeUnit.SECONDS);
        }
    }

    @Test
    void closesWhatIsLeftAtTheDeadline() throws Exception {
        try (RawConnection connection = RawConnection.open("127.0.0.1", server.port())) {
            connection.send("GET /slow HTTP/1.1\nHost: a\n\n");
            assertThat(handlerStarted.await(5, TimeUnit.SECONDS)).isTrue();

            long start = System.nanoTime();
            server.stop(Duration.ofMillis(200));

            assertThat(Duration.ofNanos(System.nanoTime() - start)).isLessThan(Duration.ofSeconds(5));
            assertThat(connection.isClosedByPeer()).isTrue();
        }
    }

    @Test
    void refusesNewConnectionsOnceStopped() {
        server.stop(Duration.ofSeconds(1));

        assertThat(server.connections()).isZero();
        try (RawConnection connection = RawConnection.open("127.0.0.1", server.port())) {
            assertThat(connection).isNull();
        } catch (java.io.UncheckedIOException refused) {
            assertThat(refused).hasRootCauseInstanceOf(java.net.ConnectException.class);
        }
    }

    private void awaitDraining() {
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(5);
        while (!server.isDraining() && System.nanoTime() < deadline) {
            Thread.onSpinWait();
        }
        assertThat(server.isDraining()).isTrue();
    }
}
