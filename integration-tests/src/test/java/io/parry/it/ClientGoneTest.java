package io.parry.it;

import static org.assertj.core.api.Assertions.assertThat;

import io.parry.http.HttpResponse;
import io.parry.testing.RawConnection;
import io.parry.testing.ServerExtension;
import java.util.concurrent.CompletableFuture;
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
