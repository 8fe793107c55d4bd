package io.parry.demo.todo;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.parry.server.Server;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.net.http.HttpResponse.BodyHandlers;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/** The todo service describes its own API at {@code /openapi.json} and shows it at {@code /docs}. */
class TodoDocumentationTest {
    private final HttpClient client =
            HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1).build();
    private Server server;

    @BeforeEach
    void start() {
        server = TodoService.start(0);
    }

    @AfterEach
    void stop() {
        server.stop(Duration.ofSeconds(1));
    }

    @Test
    void describesEveryTodoOperationWithTheSchemasOfItsRecords() throws Exception {
        JsonNode document = new ObjectMapper().readTree(get("/openapi.json").body());

        List<String> operations = new ArrayList<>();
        document.path("paths").properties().forEach(path -> path.getValue()
                .fieldNames()
                .forEachRemaining(method -> operations.add(method + " " + path.getKey())));
        assertThat(operations)
                .containsExactlyInAnyOrder(
                        "get /", "post /", "delete /", "get /todos/{id}", "patch /todos/{id}", "delete /todos/{id}");
        assertThat(document.at("/components/schemas/NewTodo/required").toString())
                .isEqualTo("[\"title\"]");
        assertThat(document.at("/components/schemas/NewTodo/properties/title/maxLength")
                        .asInt())
                .isEqualTo(1000);
        assertThat(document.at("/paths/~1todos~1{id}/get/summary").asText()).isEqualTo("Finds a todo.");
    }

    @Test
    void servesTheDocumentationPageDirectlyWithCorsOpen() throws Exception {
        HttpResponse<String> page = client.send(
                HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + server.port() + "/docs"))
                        .header("origin", "https://www.todobackend.com")
                        .build(),
                BodyHandlers.ofString());

        assertThat(page.statusCode()).isEqualTo(200);
        assertThat(page.headers().firstValue("content-type")).hasValue("text/html; charset=utf-8");
        assertThat(page.headers().firstValue("access-control-allow-origin")).hasValue("*");
        assertThat(page.body()).contains("openapi.json");
    }

    private HttpResponse<String> get(String path) throws Exception {
        return client.send(
                HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + server.port() + path))
                        .build(),
                BodyHandlers.ofString());
    }
}
