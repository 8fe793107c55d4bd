package io.parry.demo.todo;

import static org.assertj.core.api.Assertions.assertThat;

import io.parry.server.Server;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpRequest.BodyPublishers;
import java.net.http.HttpResponse;
import java.net.http.HttpResponse.BodyHandlers;
import java.time.Duration;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * The checks of the Todo-Backend specification (todobackend.com/specs), run against the real service
 * over a socket; the browser runner itself needs the public site, which this build cannot reach.
 */
class TodoBackendSpecTest {
    private static final String ORIGIN = "https://www.todobackend.com";

    private final HttpClient client =
            HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1).build();
    private Server server;
    private String root;

    @BeforeEach
    void start() {
        server = TodoService.start(0);
        root = "http://127.0.0.1:" + server.port() + "/";
    }

    @AfterEach
    void stop() {
        server.stop(Duration.ofSeconds(1));
    }

    @Test
    void theRootRespondsToGetWithAnEmptyList() throws Exception {
        HttpResponse<String> response = send("GET", root, null);

        assertThat(response.statusCode()).isEqualTo(200);
        assertThat(response.headers().firstValue("content-type")).hasValue("application/json");
        assertThat(response.body()).isEqualTo("[]");
    }

    @Test
    void theRootRespondsToPostWithTheTodoWhichWasPosted() throws Exception {
        HttpResponse<String> response = send("POST", root, "{\"title\":\"a todo\"}");

        assertThat(response.statusCode()).isEqualTo(201);
        assertThat(response.body()).contains("\"title\":\"a todo\"", "\"completed\":false");
        assertThat(response.headers().firstValue("location"))
                .hasValueSatisfying(url -> assertThat(url).startsWith("http://127.0.0.1:" + server.port() + "/todos/"));
    }

    @Test
    void listsPostedTodosAndForgetsThemAfterADeleteOfTheRoot() throws Exception {
        send("POST", root, "{\"title\":\"walk the dog\"}");
        send("POST", root, "{\"title\":\"buy milk\"}");

        assertThat(send("GET", root, null).body()).contains("walk the dog", "buy milk");
        assertThat(send("DELETE", root, null).statusCode()).isEqualTo(204);
        assertThat(send("GET", root, null).body()).isEqualTo("[]");
    }

    @Test
    void eachTodoHasAnAbsoluteUrlThatAnswersGet() throws Exception {
        String url =
                urlOf(send("POST", root, "{\"title\":\"blah\",\"order\":523}").body());

        HttpResponse<String> todo = send("GET", url, null);

        assertThat(URI.create(url).isAbsolute()).isTrue();
        assertThat(todo.statusCode()).isEqualTo(200);
        assertThat(todo.body()).contains("\"title\":\"blah\"", "\"order\":523", "\"url\":\"" + url + "\"");
    }

    @Test
    void patchChangesTitleCompletedAndOrderAndTheChangesPersist() throws Exception {
        String url = urlOf(send("POST", root, "{\"title\":\"initial title\"}").body());

        HttpResponse<String> patched =
                send("PATCH", url, "{\"title\":\"bathe the cat\",\"completed\":true,\"order\":95}");

        assertThat(patched.statusCode()).isEqualTo(200);
        assertThat(send("GET", url, null).body())
                .contains("\"title\":\"bathe the cat\"", "\"completed\":true", "\"order\":95");
    }

    @Test
    void deleteRemovesATodoFromTheList() throws Exception {
        String url = urlOf(send("POST", root, "{\"title\":\"to delete\"}").body());

        assertThat(send("DELETE", url, null).statusCode()).isEqualTo(204);
        assertThat(send("GET", root, null).body()).isEqualTo("[]");
        assertThat(send("GET", url, null).statusCode()).isEqualTo(404);
    }

    @Test
    void answersCorsPreflightsAndMarksResponsesForAnyOrigin() throws Exception {
        HttpResponse<String> preflight = client.send(
                HttpRequest.newBuilder(URI.create(root))
                        .method("OPTIONS", BodyPublishers.noBody())
                        .header("Origin", ORIGIN)
                        .header("Access-Control-Request-Method", "PATCH")
                        .header("Access-Control-Request-Headers", "content-type")
                        .build(),
                BodyHandlers.ofString());
        HttpResponse<String> list = client.send(
                HttpRequest.newBuilder(URI.create(root))
                        .header("Origin", ORIGIN)
                        .build(),
                BodyHandlers.ofString());

        assertThat(preflight.statusCode()).isEqualTo(204);
        assertThat(preflight.headers().firstValue("access-control-allow-methods"))
                .hasValueSatisfying(methods -> assertThat(methods).contains("PATCH"));
        assertThat(preflight.headers().firstValue("access-control-allow-headers"))
                .hasValue("content-type");
        assertThat(list.headers().firstValue("access-control-allow-origin")).hasValue("*");
    }

    @Test
    void buildsUrlsFromForwardedHeaders() throws Exception {
        HttpResponse<String> created = client.send(
                HttpRequest.newBuilder(URI.create(root))
                        .header("content-type", "application/json")
                        .header("X-Forwarded-Proto", "https")
                        .header("X-Forwarded-Host", "todos.example.com, proxy.internal")
                        .POST(BodyPublishers.ofString("{\"title\":\"behind a proxy\"}"))
                        .build(),
                BodyHandlers.ofString());

        assertThat(urlOf(created.body())).startsWith("https://todos.example.com/todos/");
    }

    @Test
    void refusesATodoWithoutATitleListingTheField() throws Exception {
        HttpResponse<String> response = send("POST", root, "{\"completed\":true}");

        assertThat(response.statusCode()).isEqualTo(400);
        assertThat(response.headers().firstValue("content-type")).hasValue("application/problem+json");
        assertThat(response.body()).contains("\"errors\"", "\"field\":\"title\"");
    }

    @Test
    void refusesABodyThatIsNotJson() throws Exception {
        HttpResponse<String> response = client.send(
                HttpRequest.newBuilder(URI.create(root))
                        .header("content-type", "text/plain")
                        .POST(BodyPublishers.ofString("title"))
                        .build(),
                BodyHandlers.ofString());

        assertThat(response.statusCode()).isEqualTo(415);
    }

    @Test
    void answersAnUnknownOrMalformedTodoUrlWithProblems() throws Exception {
        assertThat(send("GET", root + "todos/999", null).statusCode()).isEqualTo(404);
        assertThat(send("GET", root + "todos/abc", null).statusCode()).isEqualTo(400);
        assertThat(send("PUT", root + "todos/1", "{}").statusCode()).isEqualTo(405);
    }

    private HttpResponse<String> send(String method, String url, String json) throws Exception {
        HttpRequest.Builder request = HttpRequest.newBuilder(URI.create(url));
        if (json == null) {
            request.method(method, BodyPublishers.noBody());
        } else {
            request.header("content-type", "application/json").method(method, BodyPublishers.ofString(json));
        }
        return client.send(request.build(), BodyHandlers.ofString());
    }

    /** The {@code url} member of a todo's JSON. */
    private static String urlOf(String todoJson) {
        int start = todoJson.indexOf("\"url\":\"") + 7;
        return todoJson.substring(start, todoJson.indexOf('"', start));
    }
}
