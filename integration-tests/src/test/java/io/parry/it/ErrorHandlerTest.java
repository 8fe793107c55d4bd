package io.parry.it;

import static org.assertj.core.api.Assertions.assertThat;

import io.parry.http.HttpResponse;
import io.parry.http.HttpStatus;
import io.parry.http.Problem;
import io.parry.server.ErrorHandler;
import io.parry.server.Handler;
import io.parry.server.Server;
import io.parry.testing.RawConnection;
import io.parry.testing.RawResponse;
import java.time.Duration;
import java.util.NoSuchElementException;
import java.util.concurrent.CompletableFuture;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

class ErrorHandlerTest {
    private final Handler handler = (ctx, request) -> {
        switch (request.path()) {
            case "/missing":
                throw new NoSuchElementException("no todo 42");
            case "/missing-later":
                return CompletableFuture.failedFuture(new NoSuchElementException("no todo 43"));
            default:
                throw new IllegalStateException("not mapped");
        }
    };
    private final ErrorHandler notFound = (ctx, request, cause) -> cause instanceof NoSuchElementException
            ? Problem.of(HttpStatus.NOT_FOUND).detail(cause.getMessage()).toResponse()
            : null;
    private final Server server = Server.builder()
            .host("127.0.0.1")
            .port(0)
            .handler(handler)
            .errorHandler(notFound)
            .build()
            .start();

    @AfterEach
    void stop() {
        server.stop(Duration.ofSeconds(1));
    }

    @Test
    void mapsThrownAndFailedStagesThroughTheServerErrorHandler() {
        assertThat(get("/missing").status()).isEqualTo(404);
        assertThat(get("/missing").bodyText()).contains("no todo 42");
        assertThat(get("/missing-later").bodyText()).contains("no todo 43");
    }

    @Test
    void leavesUnmappedFailuresToTheDefault() {
        RawResponse response = get("/other");

        assertThat(response.status()).isEqualTo(500);
        assertThat(response.bodyText()).doesNotContain("not mapped");
    }

    @Test
    void chainsHandlersInOrder() throws Exception {
        ErrorHandler first = (ctx, request, cause) -> null;
        ErrorHandler second = (ctx, request, cause) -> HttpResponse.ofText("second");

        HttpResponse response = first.orElse(second).handle(null, null, new RuntimeException());

        assertThat(response.body().aggregate(100).toCompletableFuture().get().toStringUtf8())
                .isEqualTo("second");
    }

    private RawResponse get(String path) {
        try (RawConnection connection = RawConnection.open("127.0.0.1", server.port())) {
            connection.send("GET " + path + " HTTP/1.1\nHost: a\n\n");
            return connection.readResponse();
        }
    }
}
