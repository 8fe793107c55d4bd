package io.parry.json;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.parry.http.HttpStatus;
import io.parry.http.HttpStatusException;
import io.parry.http.Problem.FieldError;
import io.parry.server.Handler;
import io.parry.testing.RawConnection;
import io.parry.testing.RawResponse;
import io.parry.testing.ServerExtension;
import java.net.http.HttpRequest;
import java.net.http.HttpRequest.BodyPublishers;
import java.net.http.HttpResponse;
import java.net.http.HttpResponse.BodyHandlers;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

class JsonEndpointsTest {
    record NewTodo(String title, int priority) {}

    record Todo(int id, String title, int priority) {}

    record Where(String thread) {}

    private static final ObjectMapper mapper = new ObjectMapper();
    private static final AtomicInteger checks = new AtomicInteger();

    /** Refuses titles starting with "x"; counts the inputs it checks. Types other than NewTodo need no check. */
    private static final InputValidator NO_X = new InputValidator() {
        @Override
        @SuppressWarnings("unchecked")
        public <T> Optional<InputCheck<T>> checkFor(Class<T> type) {
            if (type != NewTodo.class) {
                return Optional.empty();
            }
            InputCheck<NewTodo> check = todo -> {
                checks.incrementAndGet();
                return todo.title() != null && todo.title().startsWith("x")
                        ? List.of(FieldError.of("title", "must not start with x", todo.title()))
                        : List.of();
            };
            return Optional.of((InputCheck<T>) check);
        }
    };

    private static final JsonEndpoints endpoints =
            JsonEndpoints.builder().validator(NO_X).maxBodyBytes(256).build();

    private static final Map<String, Handler> routes = Map.ofEntries(
            Map.entry(
                    "/todos",
                    endpoints.of(
                            NewTodo.class,
                            (ctx, todo) -> CompletableFuture.supplyAsync(
                                    () -> JsonResult.created("/todos/7", new Todo(7, todo.title(), todo.priority()))))),
            Map.entry(
                    "/plain",
                    endpoints.of(
                            NewTodo.class,
                            (ctx, todo) ->
                                    CompletableFuture.completedFuture(new Todo(1, todo.title(), todo.priority())))),
            Map.entry(
                    "/vendor-type",
                    endpoints.of(
                            NewTodo.class,
                            (ctx, todo) -> CompletableFuture.completedFuture(
                                    JsonResult.ok(new Todo(2, todo.title(), todo.priority()))
                                            .withHeader("content-type", "application/vnd.api+json")))),
            Map.entry("/nothing", endpoints.of(NewTodo.class, (ctx, todo) -> CompletableFuture.completedFuture(null))),
            Map.entry(
                    "/accepted",
                    endpoints.of(
                            NewTodo.class,
                            (ctx, todo) -> CompletableFuture.completedFuture(
                                    JsonResult.of(HttpStatus.ACCEPTED).withHeader("retry-after", "5")))),
            Map.entry(
                    "/where",
                    endpoints.of(
                            NewTodo.class,
                            (ctx, todo) -> CompletableFuture.completedFuture(
                                    new Where(Thread.currentThread().getName())))),
            Map.entry(
                    "/where-blocking",
                    endpoints.blocking(
                            NewTodo.class,
                            (ctx, todo) -> new Where(Thread.currentThread().getName()))),
            Map.entry("/where-unchecked", endpoints.blocking(Where.class, (ctx, where) -> where)),
            Map.entry(
                    "/search",
                    endpoints.withoutBody((ctx, request) -> CompletableFuture.completedFuture(
                            List.of(Map.of("q", request.queryParam("q").orElse("")))))),
            Map.entry(
                    "/search-blocking",
                    endpoints.blockingWithoutBody((ctx, request) -> Map.of(
                            "q",
                            request.queryParam("q").orElse(""),
                            "thread",
                            Thread.currentThread().getName()))),
            Map.entry("/delete", endpoints.blockingWithoutBody((ctx, request) -> null)),
            Map.entry("/throws", endpoints.of(NewTodo.class, (ctx, todo) -> {
                throw new IllegalStateException("secret internal detail");
            })),
            Map.entry(
                    "/fails-later",
                    endpoints.of(
                            NewTodo.class,
                            (ctx, todo) -> CompletableFuture.supplyAsync(() -> {
                                throw new IllegalStateException("another secret");
                            }))),
            Map.entry("/throws-blocking", endpoints.blocking(NewTodo.class, (ctx, todo) -> {
                throw new IllegalStateException("blocking secret");
            })),
            Map.entry("/conflict", endpoints.blocking(NewTodo.class, (ctx, todo) -> {
                throw new HttpStatusException(HttpStatus.CONFLICT, "That title is taken.");
            })),
            Map.entry(
                    "/domain-check",
                    endpoints.of(
                            NewTodo.class,
                            (ctx, todo) -> CompletableFuture.supplyAsync(() -> {
                                throw new InvalidInputException(
                                        "The todo is invalid.",
                                        List.of(FieldError.of("priority", "is too high", todo.priority())));
                            }))),
            Map.entry("/domain-check-blocking", endpoints.blocking(NewTodo.class, (ctx, todo) -> {
                throw new InvalidInputException(
                        "The todo is invalid.", List.of(FieldError.of("priority", "is too high")));
            })),
            Map.entry(
                    "/sync",
                    endpoints.sync(
                            NewTodo.class,
                            (ctx, todo) -> JsonResult.created(
                                    "/todos/8", new Where(Thread.currentThread().getName() + ":" + todo.title())))),
            Map.entry(
                    "/sync-search",
                    endpoints.syncWithoutBody(
                            (ctx, request) -> List.of(request.queryParam("q").orElse("")))),
            Map.entry("/sync-nothing", endpoints.syncWithoutBody((ctx, request) -> null)),
            Map.entry("/sync-domain-check", endpoints.sync(NewTodo.class, (ctx, todo) -> {
                throw new InvalidInputException("The todo is invalid.", List.of(FieldError.of("title", "is taken")));
            })),
            Map.entry("/sync-invalid-query", endpoints.syncWithoutBody((ctx, request) -> {
                throw new InvalidInputException("The query is invalid.", List.of(FieldError.of("q", "is missing")));
            })),
            Map.entry(
                    "/unwritable",
                    endpoints.of(NewTodo.class, (ctx, todo) -> CompletableFuture.completedFuture(new Object()))));

    @RegisterExtension
    static final ServerExtension server =
            ServerExtension.of((ctx, request) -> routes.get(request.path()).handle(ctx, request));

    @Test
    void answersACreatedResultWith201LocationAndJson() throws Exception {
        HttpResponse<String> response = post("/todos", "{\"title\":\"Buy tea\",\"priority\":2}");

        assertThat(response.statusCode()).isEqualTo(201);
        assertThat(response.headers().firstValue("location")).hasValue("/todos/7");
        assertThat(response.headers().firstValue("content-type")).hasValue("application/json");
        assertThat(response.body()).isEqualTo("{\"id\":7,\"title\":\"Buy tea\",\"priority\":2}");
    }

    @Test
    void answersAPlainValueWith200() throws Exception {
        HttpResponse<String> response = post("/plain", "{\"title\":\"a\",\"priority\":1}");

        assertThat(response.statusCode()).isEqualTo(200);
        assertThat(response.headers().firstValue("content-type")).hasValue("application/json");
        assertThat(response.body()).isEqualTo("{\"id\":1,\"title\":\"a\",\"priority\":1}");
    }

    @Test
    void answersNullWith204AndNoBody() {
        RawResponse response =
                raw("POST /nothing HTTP/1.1\nHost: a\nContent-Type: application/json\n" + "Content-Length: 2\n\n{}");

        assertThat(response.status()).isEqualTo(204);
        assertThat(response.header("content-type")).isNull();
        assertThat(response.body()).isEmpty();
    }

    @Test
    void answersAResultWithoutBodyWithItsStatusAndHeaders() throws Exception {
        HttpResponse<String> response = post("/accepted", "{\"title\":\"a\"}");

        assertThat(response.statusCode()).isEqualTo(202);
        assertThat(response.headers().firstValue("retry-after")).hasValue("5");
        assertThat(response.body()).isEmpty();
    }

    @Test
    void letsAResultReplaceTheContentTypeWithOneOfItsOwn() throws Exception {
        HttpResponse<String> response = post("/vendor-type", "{\"title\":\"a\"}");

        assertThat(response.statusCode()).isEqualTo(200);
        assertThat(response.headers().allValues("content-type")).containsExactly("application/vnd.api+json");
    }

    @Test
    void runsTheAsyncHandlerOnTheEventLoop() throws Exception {
        assertThat(thread(post("/where", "{\"title\":\"a\"}"))).startsWith("parry-loop");
    }

    @Test
    void runsTheBlockingHandlerOffTheEventLoop() throws Exception {
        String thread = thread(post("/where-blocking", "{\"title\":\"a\"}"));

        assertThat(thread).doesNotStartWith("parry-loop");
        if (Runtime.version().feature() < 21) {
            assertThat(thread).startsWith("parry-worker-");
        }
    }

    @Test
    void runsTheBlockingHandlerOnAVirtualThreadOnJdk21AndLater() throws Exception {
        assumeTrue(Runtime.version().feature() >= 21, "virtual threads need JDK 21");

        assertThat(thread(post("/where-blocking", "{\"title\":\"a\"}"))).isEmpty(); // virtual threads are unnamed
    }

    @Test
    void anEndpointWithoutBodyGetsTheRequest() throws Exception {
        HttpResponse<String> response = get("/search?q=tea");

        assertThat(response.statusCode()).isEqualTo(200);
        assertThat(response.body()).isEqualTo("[{\"q\":\"tea\"}]");
    }

    @Test
    void aBlockingEndpointWithoutBodyRunsOffTheEventLoop() throws Exception {
        JsonNode body = mapper.readTree(get("/search-blocking?q=x").body());

        assertThat(body.get("q").asText()).isEqualTo("x");
        assertThat(body.get("thread").asText()).doesNotStartWith("parry-loop");
        assertThat(get("/delete").statusCode()).isEqualTo(204);
    }

    @Test
    void aSyncEndpointAnswersAtOnceOnTheEventLoopWithTheHandlersValue() throws Exception {
        HttpResponse<String> response = post("/sync", "{\"title\":\"tea\"}");

        assertThat(response.statusCode()).isEqualTo(201);
        assertThat(response.headers().firstValue("location")).hasValue("/todos/8");
        assertThat(mapper.readTree(response.body()).get("thread").asText())
                .startsWith("parry-loop")
                .endsWith(":tea");
    }

    @Test
    void aSyncEndpointWithoutBodyGetsTheRequestAndNullIs204() throws Exception {
        HttpResponse<String> response = get("/sync-search?q=tea");

        assertThat(response.statusCode()).isEqualTo(200);
        assertThat(response.body()).isEqualTo("[\"tea\"]");
        assertThat(get("/sync-nothing").statusCode()).isEqualTo(204);
    }

    @Test
    void aSyncEndpointsInvalidInputListsItsFields() throws Exception {
        assertThat(problem(post("/sync-domain-check", "{\"title\":\"a\"}"), 400)
                        .get("errors")
                        .toString())
                .isEqualTo("[{\"field\":\"title\",\"message\":\"is taken\"}]");
        assertThat(problem(get("/sync-invalid-query"), 400).get("errors").toString())
                .isEqualTo("[{\"field\":\"q\",\"message\":\"is missing\"}]");
    }

    @Test
    void malformedJsonIs400NamingTheLineAndColumn() throws Exception {
        HttpResponse<String> response = post("/plain", "{\n  \"title\": \"a\",\n  \"priority\": 1,,\n}");

        JsonNode problem = problem(response, 400);
        assertThat(problem.get("detail").asText())
                .startsWith("Malformed JSON at line 3, column 17: Unexpected character (','");
        assertThat(problem.get("title").asText()).isEqualTo("Bad Request");
        assertThat(problem.get("instance").asText()).isEqualTo("/plain");
        assertThat(problem.get("requestId").asText()).isNotEmpty();
        assertThat(problem.has("errors")).isFalse();
    }

    @Test
    void aWrongTypeForAFieldIs400NamingTheField() throws Exception {
        JsonNode problem = problem(post("/plain", "{\"title\":\"a\",\"priority\":\"high\"}"), 400);

        assertThat(problem.get("detail").asText())
                .isEqualTo("Invalid value for field 'priority' at line 1, column 25.");
        assertThat(problem.get("errors").toString())
                .isEqualTo("[{\"field\":\"priority\",\"message\":\"must be an integer\",\"rejectedValue\":\"high\"}]");
    }

    @Test
    void anInvalidInputIs400ListingTheFieldsAndTheHandlerIsNotCalled() throws Exception {
        JsonNode problem = problem(post("/todos", "{\"title\":\"xylophone\"}"), 400);

        assertThat(problem.get("detail").asText()).isEqualTo("The request content is invalid in 1 field.");
        assertThat(problem.get("errors").toString())
                .isEqualTo(
                        "[{\"field\":\"title\",\"message\":\"must not start with x\",\"rejectedValue\":\"xylophone\"}]");
        assertThat(problem.get("instance").asText()).isEqualTo("/todos");
    }

    @Test
    void aTypeWithoutConstraintsIsNeverChecked() throws Exception {
        int before = checks.get();

        HttpResponse<String> response = post("/where-unchecked", "{\"thread\":\"x\"}");

        assertThat(response.statusCode()).isEqualTo(200);
        assertThat(checks.get()).isEqualTo(before);
        post("/plain", "{\"title\":\"a\"}");
        assertThat(checks.get()).isEqualTo(before + 1);
    }

    @Test
    void aMissingContentTypeIs415() throws Exception {
        HttpResponse<String> response = server.client()
                .send(
                        HttpRequest.newBuilder(server.uri("/plain"))
                                .POST(BodyPublishers.ofString("{}"))
                                .build(),
                        BodyHandlers.ofString());

        JsonNode problem = problem(response, 415);
        assertThat(problem.get("detail").asText())
                .isEqualTo("The request has no Content-Type; expected application/json.");
        assertThat(response.headers().firstValue("accept")).hasValue("application/json");
    }

    @Test
    void aWrongContentTypeIs415() throws Exception {
        JsonNode problem = problem(post("/plain", "text/plain", "{}"), 415);

        assertThat(problem.get("title").asText()).isEqualTo("Unsupported Media Type");
        assertThat(problem.get("requestId").asText()).isNotEmpty();
    }

    @Test
    void acceptsJsonWithACharsetAndJsonSuffixes() throws Exception {
        assertThat(post("/plain", "application/json; charset=UTF-8", "{\"title\":\"a\"}")
                        .statusCode())
                .isEqualTo(200);
        assertThat(post("/plain", "application/vnd.todo+json", "{\"title\":\"a\"}")
                        .statusCode())
                .isEqualTo(200);
    }

    @Test
    void contentOverTheLimitIs413() throws Exception {
        String title = "a".repeat(300);

        JsonNode problem = problem(post("/plain", "{\"title\":\"" + title + "\"}"), 413);

        assertThat(problem.get("detail").asText()).isEqualTo("The request content is larger than 256 bytes.");
    }

    @Test
    void chunkedContentOverTheLimitIs413() {
        String chunk = "{\"title\":\"" + "a".repeat(300) + "\"}";
        RawResponse response = raw("POST /plain HTTP/1.1\nHost: a\nContent-Type: application/json\n"
                + "Transfer-Encoding: chunked\n\n" + Integer.toHexString(chunk.length()) + "\n" + chunk + "\n0\n\n");

        assertThat(response.status()).isEqualTo(413);
        assertThat(response.header("content-type")).isEqualTo("application/problem+json");
    }

    @Test
    void anExceptionInTheHandlerIs500ThatRevealsNothing() throws Exception {
        for (String path : List.of("/throws", "/fails-later", "/throws-blocking", "/unwritable")) {
            HttpResponse<String> response = post(path, "{\"title\":\"a\"}");

            JsonNode problem = problem(response, 500);
            assertThat(problem.get("title").asText()).isEqualTo("Internal Server Error");
            assertThat(problem.get("requestId").asText()).isNotEmpty();
            assertThat(response.body()).doesNotContain("secret", "Exception", "java.", "at io.");
        }
    }

    @Test
    void aStatusExceptionInTheHandlerGivesItsStatusAndDetail() throws Exception {
        JsonNode problem = problem(post("/conflict", "{\"title\":\"a\"}"), 409);

        assertThat(problem.get("detail").asText()).isEqualTo("That title is taken.");
    }

    @Test
    void anInvalidInputExceptionFromTheHandlerListsItsFields() throws Exception {
        JsonNode problem = problem(post("/domain-check", "{\"title\":\"a\",\"priority\":9}"), 400);

        assertThat(problem.get("detail").asText()).isEqualTo("The todo is invalid.");
        assertThat(problem.get("errors").toString())
                .isEqualTo("[{\"field\":\"priority\",\"message\":\"is too high\",\"rejectedValue\":9}]");
        assertThat(problem(post("/domain-check-blocking", "{\"title\":\"a\"}"), 400)
                        .get("errors")
                        .toString())
                .isEqualTo("[{\"field\":\"priority\",\"message\":\"is too high\"}]");
    }

    @Test
    void keepsTheConnectionOpenAfterRefusingInput() {
        try (RawConnection connection = server.connect()) {
            connection.send("POST /plain HTTP/1.1\nHost: a\nContent-Type: text/plain\nContent-Length: 2\n\n{}");
            assertThat(connection.readResponse().status()).isEqualTo(415);
            connection.send("POST /plain HTTP/1.1\nHost: a\nContent-Type: application/json\nContent-Length: 3\n\n{,}");
            assertThat(connection.readResponse().status()).isEqualTo(400);
            connection.send("POST /plain HTTP/1.1\nHost: a\nContent-Type: application/json\nContent-Length: 2\n\n{}");
            RawResponse ok = connection.readResponse();
            assertThat(ok.status()).isEqualTo(200);
            assertThat(ok.bodyText()).isEqualTo("{\"id\":1,\"title\":null,\"priority\":0}");
        }
    }

    private static String thread(HttpResponse<String> response) throws Exception {
        assertThat(response.statusCode()).isEqualTo(200);
        return mapper.readTree(response.body()).get("thread").asText();
    }

    private static JsonNode problem(HttpResponse<String> response, int status) throws Exception {
        assertThat(response.statusCode()).isEqualTo(status);
        assertThat(response.headers().firstValue("content-type")).hasValue("application/problem+json");
        JsonNode problem = mapper.readTree(response.body());
        assertThat(problem.get("status").asInt()).isEqualTo(status);
        return problem;
    }

    private static HttpResponse<String> post(String path, String json) throws Exception {
        return post(path, "application/json", json);
    }

    private static HttpResponse<String> post(String path, String contentType, String body) throws Exception {
        return server.client()
                .send(
                        HttpRequest.newBuilder(server.uri(path))
                                .header("content-type", contentType)
                                .POST(BodyPublishers.ofString(body))
                                .build(),
                        BodyHandlers.ofString());
    }

    private static HttpResponse<String> get(String path) throws Exception {
        return server.client().send(HttpRequest.newBuilder(server.uri(path)).build(), BodyHandlers.ofString());
    }

    private static RawResponse raw(String request) {
        try (RawConnection connection = server.connect()) {
            connection.send(request);
            return connection.readResponse();
        }
    }
}
