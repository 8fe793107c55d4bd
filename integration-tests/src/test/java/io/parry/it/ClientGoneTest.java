package io.parry.it;

import static org.assertj.core.api.Assertions.assertThat;

import io.parry.http.HttpResponse;
import io.parry.server.Server;
import io.parry.server.ServerTimeouts;
import io.parry.testing.RawConnection;
import io.parry.testing.ServerExtension;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

class ClientGoneTest {
    private static final CompletableFuture<Void> gone = new CompletableFuture<>();
    private static final CompletableFuture<Void> answeredGone = new CompletableFuture<>();
    private static final CompletableFuture<Void> entered = new CompletableFuture<>();

    @RegisterExtension
    static final ServerExtension server = ServerExtension.of((ctx, request) -> {
        if (request.path().equals("/answered")) {
            ctx.clientGone().thenRun(() -> answeredGone.complete(null));
            return HttpResponse.ofText("done").toStage();
        }
        ctx.clientGone().thenRun(() -> gone.complete(null));
        entered.complete(null);
        return new CompletableFuture<>();
    });

    @Test
    void signalsWhenTheClientClosesBeforeTheResponse() throws Exception {
        try (RawConnection connection = server.connect()) {
            connection.send("GET /never HTTP/1.1\nHost: localhost\n\n");
            entered.get(5, TimeUnit.SECONDS);
        }

        gone.get(5, TimeUnit.SECONDS);
        assertThat(gone).isDone();
    }

    @Test
    void signalsWhenTheServerGivesUpAfterItsRequestTimeout() throws Exception {
        CompletableFuture<Void> timedOut = new CompletableFuture<>();
        Server server = Server.builder()
                .host("127.0.0.1")
                .port(0)
                .handler((ctx, request) -> {
                    ctx.clientGone().thenRun(() -> timedOut.complete(null));
                    return new CompletableFuture<>();
                })
                .options(options -> options.timeouts(
                        ServerTimeouts.builder().request(Duration.ofMillis(100)).build()))
                .build()
                .start();
        try (RawConnection connection = RawConnection.open("127.0.0.1", server.port())) {
            connection.send("GET /slow HTTP/1.1\nHost: localhost\n\n");
            assertThat(connection.readResponse().status()).isEqualTo(503);
            timedOut.get(5, TimeUnit.SECONDS);
        } finally {
            server.stop(Duration.ofSeconds(1));
        }
    }

    @Test
    void logsNoServerErrorWhenTheClientLeavesInTheMiddleOfItsBody() throws Exception {
        CompletableFuture<Throwable> bodyFailed = new CompletableFuture<>();
        Server server = Server.builder()
                .host("127.0.0.1")
                .port(0)
                .handler((ctx, request) -> {
                    ScheduledExecutorService loop = ctx.eventLoop();
                    return request.body()
                            .aggregate(1 << 20)
                            // Seen after the close has been handled in full: the task runs after it.
                            .whenComplete((body, failure) -> loop.execute(() -> bodyFailed.complete(failure)))
                            .thenApply(body -> HttpResponse.ofText("got it"));
                })
                .build()
                .start();
        PrintStream stderr = System.err;
        ByteArrayOutputStream logged = new ByteArrayOutputStream();
        System.setErr(new PrintStream(logged, true, StandardCharsets.UTF_8));
        try {
            try (RawConnection connection = RawConnection.open("127.0.0.1", server.port())) {
                connection.send("POST /upload-left HTTP/1.1\nHost: localhost\nContent-Length: 100\n\nhello");
            }
            assertThat(bodyFailed.get(5, TimeUnit.SECONDS)).isNotNull();
        } finally {
            System.setErr(stderr);
            server.stop(Duration.ofSeconds(1));
        }
        assertThat(logged.toString(StandardCharsets.UTF_8)).doesNotContain("/upload-left failed");
    }

    @Test
    void staysQuietForAnAnsweredRequest() throws InterruptedException {
        try (RawConnection connection = server.connect()) {
            connection.send("GET /answered HTTP/1.1\nHost: localhost\n\n");
            assertThat(connection.readResponse().status()).isEqualTo(200);
        }
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(5);
        while (server.server().connections() > 0 && System.nanoTime() < deadline) {
            Thread.sleep(2);
        }

        assertThat(answeredGone).isNotDone();
    }
}
