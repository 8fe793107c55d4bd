package io.parry.json;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.parry.client.Endpoint;
import io.parry.client.HttpClient;
import io.parry.http.HttpData;
import io.parry.http.HttpResponse;
import io.parry.http.HttpStatus;
import io.parry.http.MediaType;
import io.parry.testing.ServerExtension;
import java.util.concurrent.CompletionException;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

class JsonClientTest {
    record Greeting(String message, int count) {}

    private static final JsonCodec codec = JsonCodec.ofDefault();
    private static final HttpClient client = HttpClient.ofDefault();

    @RegisterExtension
    static final ServerExtension upstream = ServerExtension.of((ctx, request) -> {
        switch (request.path()) {
            case "/greeting":
                return HttpResponse.of(MediaType.JSON, HttpData.ofUtf8("{\"message\":\"hi\",\"count\":2}"))
                        .toStage();
            case "/echo":
                return request.body().aggregate(1024).thenApply(data -> HttpResponse.of(MediaType.JSON, data));
            case "/broken":
                return HttpResponse.of(MediaType.JSON, HttpData.ofUtf8("{\"message\":"))
                        .toStage();
            case "/big":
                return HttpResponse.of(MediaType.JSON, HttpData.ofUtf8("\"" + "x".repeat(4096) + "\""))
                        .toStage();
            default:
                return HttpResponse.of(
                                HttpStatus.NOT_FOUND, MediaType.JSON, HttpData.ofUtf8("{\"title\":\"Not Found\"}"))
                        .toStage();
        }
    });

    @AfterAll
    static void closeClient() {
        client.close();
    }

    @Test
    void decodesAGetResponse() {
        Greeting greeting = json().get(endpoint(), "/greeting", Greeting.class)
                .toCompletableFuture()
                .join();

        assertThat(greeting).isEqualTo(new Greeting("hi", 2));
    }

    @Test
    void encodesAPostBodyAndDecodesTheAnswer() {
        Greeting echoed = json().post(endpoint(), "/echo", new Greeting("sent", 7), Greeting.class)
                .toCompletableFuture()
                .join();

        assertThat(echoed).isEqualTo(new Greeting("sent", 7));
    }

    @Test
    void failsWithTheStatusOfANon2xxResponse() {
        assertThatThrownBy(() -> json().get(endpoint(), "/missing", Greeting.class)
                        .toCompletableFuture()
                        .join())
                .isInstanceOf(CompletionException.class)
                .cause()
                .isInstanceOfSatisfying(UnexpectedResponseException.class, e -> {
                    assertThat(e.status()).isEqualTo(404);
                    assertThat(e.body()).contains("Not Found");
                });
    }

    @Test
    void failsOnABodyThatIsNotTheType() {
        assertThatThrownBy(() -> json().get(endpoint(), "/broken", Greeting.class)
                        .toCompletableFuture()
                        .join())
                .cause()
                .isInstanceOf(UnexpectedResponseException.class)
                .hasMessageContaining("Greeting");
    }

    @Test
    void failsOnABodyOverTheLimit() {
        assertThatThrownBy(() -> json().withMaxResponseSize(1024)
                        .get(endpoint(), "/big", String.class)
                        .toCompletableFuture()
                        .join())
                .cause()
                .isInstanceOf(UnexpectedResponseException.class)
                .hasMessageContaining("over 1024 bytes");
    }

    private static JsonClient json() {
        return JsonClient.of(client, codec);
    }

    private static Endpoint endpoint() {
        return Endpoint.of("127.0.0.1", upstream.port());
    }
}
