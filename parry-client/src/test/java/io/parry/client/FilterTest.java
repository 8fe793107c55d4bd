package io.parry.client;

import static io.parry.client.Calls.await;
import static io.parry.client.Calls.eventually;
import static io.parry.client.Calls.failure;
import static io.parry.client.Calls.text;
import static org.assertj.core.api.Assertions.assertThat;

import io.parry.http.HttpMethod;
import io.parry.http.HttpRequest;
import io.parry.http.HttpResponse;
import io.parry.testing.ServerExtension;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

class FilterTest {
    /** Answers with the values of the {@code x-seen} fields it received. */
    @RegisterExtension
    static final ServerExtension server = ServerExtension.of((ctx, request) -> HttpResponse.ofText(
                    String.join(",", request.headers().getAll("x-seen")))
            .toStage());

    private final List<String> events = new CopyOnWriteArrayList<>();
    private HttpClient client;

    @AfterEach
    void closeClient() {
        client.close();
    }

    private ClientFilter recording(String name) {
        return (next, endpoint, request) -> {
            events.add(name + " sends");
            return next.send(endpoint, request.mapHeaders(h -> h.add("x-seen", name)))
                    .thenApply(response -> {
                        events.add(name + " receives");
                        return response;
                    });
        };
    }

    private static HttpRequest get() {
        return HttpRequest.of(HttpMethod.GET, "/");
    }

    /** A client that closes an abandoned call's connection, which shows that the abandoning reached it. */
    private static HttpClient.Builder closingOnAbandon() {
        return HttpClient.builder()
                .options(ClientOptions.builder()
                        .pool(PoolOptions.builder().abandonedDrain(0).build())
                        .build());
    }

    @Test
    void runsFiltersFirstAddedOutermost() {
        client = HttpClient.builder()
                .filter(recording("first"))
                .filter(recording("second"))
                .build();

        HttpResponse response = await(client.send(Endpoint.of("127.0.0.1", server.port()), get()));

        assertThat(text(response)).isEqualTo("first,second");
        assertThat(events).containsExactly("first sends", "second sends", "second receives", "first receives");
    }

    @Test
    void letsAFilterAnswerWithoutCallingTheUpstream() {
        client = HttpClient.builder()
                .filter((next, endpoint, request) ->
                        HttpResponse.ofText("cached").toStage())
                .build();

        assertThat(text(await(client.send(Endpoint.of("127.0.0.1", 1), get())))).isEqualTo("cached");
    }

    @Test
    void failsTheStageWhenAFilterThrows() {
        client = HttpClient.builder()
                .filter((next, endpoint, request) -> {
                    throw new IllegalStateException("no token");
                })
                .build();

        assertThat(failure(client.send(Endpoint.of("127.0.0.1", server.port()), get())))
                .isInstanceOf(IllegalStateException.class)
                .hasMessage("no token");
    }

    @Test
    void appliesTimeoutsPassedWithTheCallBehindTheFilters() {
        try (RawUpstream upstream = RawUpstream.start(connection -> {
            connection.readRequest();
            connection.awaitClose();
        })) {
            client = HttpClient.builder().filter(recording("only")).build();

            Throwable failure = failure(client.send(
                    upstream.endpoint(),
                    get(),
                    ClientTimeouts.builder()
                            .responseHeaders(Duration.ofMillis(100))
                            .build()));

            assertThat(failure).isInstanceOf(ResponseTimeoutException.class);
        }
    }

    @Test
    void cancelsTheCallBehindTheFiltersWhenTheCallerCancels() throws Exception {
        CountDownLatch received = new CountDownLatch(1);
        CountDownLatch closed = new CountDownLatch(1);
        try (RawUpstream upstream = RawUpstream.start(connection -> {
            connection.readRequest();
            received.countDown();
            if (connection.awaitClose()) {
                closed.countDown();
            }
        })) {
            client = closingOnAbandon().filter(recording("only")).build();
            CompletionStage<HttpResponse> call = client.send(upstream.endpoint(), get());
            assertThat(received.await(10, TimeUnit.SECONDS)).isTrue();

            call.toCompletableFuture().cancel(true);

            assertThat(closed.await(10, TimeUnit.SECONDS)).isTrue();
            assertThat(events).containsExactly("only sends");
        }
    }

    @Test
    void abandonsTheCallBehindTheFiltersWhenTheCallerTimesItOut() throws Exception {
        CountDownLatch closed = new CountDownLatch(1);
        try (RawUpstream upstream = RawUpstream.start(connection -> {
            connection.readRequest();
            if (connection.awaitClose()) {
                closed.countDown();
            }
        })) {
            client = closingOnAbandon().filter(recording("only")).build();

            Throwable failure = failure(client.send(upstream.endpoint(), get())
                    .toCompletableFuture()
                    .orTimeout(100, TimeUnit.MILLISECONDS));

            assertThat(failure).isInstanceOf(TimeoutException.class);
            assertThat(closed.await(10, TimeUnit.SECONDS))
                    .as("the connection is not left waiting for an answer nobody wants")
                    .isTrue();
            eventually(() -> client.poolStats(upstream.endpoint()).isEmpty());
        }
    }
}
