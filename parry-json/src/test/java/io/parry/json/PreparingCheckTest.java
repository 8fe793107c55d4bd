package io.parry.json;

import static org.assertj.core.api.Assertions.assertThat;

import io.parry.http.HttpResponse;
import io.parry.http.Problem.FieldError;
import io.parry.testing.ServerExtension;
import java.net.http.HttpRequest;
import java.net.http.HttpRequest.BodyPublishers;
import java.net.http.HttpResponse.BodyHandlers;
import java.time.Duration;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * A check still being prepared (a validator built in the background) is waited for without holding
 * the event loop: with one event loop, other requests are answered meanwhile, and the endpoint's
 * handler runs on the event loop once the check is ready.
 */
class PreparingCheckTest {
    record NewTodo(String title) {}

    record Where(String thread) {}

    private static volatile CompletableFuture<Void> preparing = new CompletableFuture<>();

    /** Like a validator being built: the check answers only once prepared, and would wait for it. */
    private static final InputValidator PREPARING = new InputValidator() {
        @Override
        @SuppressWarnings("unchecked")
        public <T> Optional<InputCheck<T>> checkFor(Class<T> type) {
            InputCheck<NewTodo> check = new InputCheck<>() {
                @Override
                public List<FieldError> violations(NewTodo todo) {
                    preparing.join();
                    return todo.title().isEmpty() ? List.of(FieldError.of("title", "must not be empty")) : List.of();
                }

                @Override
                public CompletionStage<Void> ready() {
                    return preparing;
                }
            };
            return Optional.of((InputCheck<T>) check);
        }
    };

    private static final JsonEndpoints endpoints =
            JsonEndpoints.builder().validator(PREPARING).build();

    private static final io.parry.server.Handler todos = endpoints.of(
            NewTodo.class,
            (ctx, todo) -> CompletableFuture.completedFuture(
                    new Where(Thread.currentThread().getName())));

    @RegisterExtension
    static final ServerExtension server = ServerExtension.of(
            (ctx, request) -> request.path().equals("/todos")
                    ? todos.handle(ctx, request)
                    : HttpResponse.ofText("pong").toStage(),
            options -> options.eventLoopThreads(1));

    @Test
    void answersOtherRequestsWhileTheCheckIsPreparedAndThenChecksOnTheEventLoop() throws Exception {
        preparing = new CompletableFuture<>();
        CompletableFuture<java.net.http.HttpResponse<String>> created = post("{\"title\":\"tea\"}");
        CompletableFuture<java.net.http.HttpResponse<String>> invalid = post("{\"title\":\"\"}");

        try {
            java.net.http.HttpResponse<String> pong = server.client()
                    .send(
                            HttpRequest.newBuilder(server.uri("/ping"))
                                    .timeout(Duration.ofSeconds(10))
                                    .build(),
                            BodyHandlers.ofString());
            assertThat(pong.body()).isEqualTo("pong");
            assertThat(created).isNotDone();

        } finally {
            // A blocked event loop would otherwise never let the server stop.
            preparing.complete(null);
        }

        assertThat(created.get(10, TimeUnit.SECONDS).statusCode()).isEqualTo(200);
        assertThat(created.get().body()).startsWith("{\"thread\":\"parry-loop");
        assertThat(invalid.get(10, TimeUnit.SECONDS).statusCode()).isEqualTo(400);
    }

    @Test
    void aCheckThatCannotBePreparedFailsItsRequestWith500() throws Exception {
        preparing = new CompletableFuture<>();
        CompletableFuture<java.net.http.HttpResponse<String>> created = post("{\"title\":\"tea\"}");

        preparing.completeExceptionally(new IllegalStateException("no provider"));

        assertThat(created.get(10, TimeUnit.SECONDS).statusCode()).isEqualTo(500);
    }

    private static CompletableFuture<java.net.http.HttpResponse<String>> post(String json) {
        return server.client()
                .sendAsync(
                        HttpRequest.newBuilder(server.uri("/todos"))
                                .header("content-type", "application/json")
                                .timeout(Duration.ofSeconds(10))
                                .POST(BodyPublishers.ofString(json))
                                .build(),
                        BodyHandlers.ofString());
    }
}
