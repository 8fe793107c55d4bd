package io.parry.json;

import static java.util.Objects.requireNonNull;

import io.parry.client.ClientSender;
import io.parry.client.Endpoint;
import io.parry.http.HttpBody;
import io.parry.http.HttpData;
import io.parry.http.HttpMethod;
import io.parry.http.HttpRequest;
import io.parry.http.HttpResponse;
import io.parry.http.MediaType;
import java.nio.charset.StandardCharsets;
import java.util.concurrent.CompletionStage;

/**
 * Typed JSON calls over a Parry {@code HttpClient} (or any {@link ClientSender}, such as one with
 * filters): the request body is encoded with the codec, a 2xx response body is read up to a limit and
 * decoded into the type. Anything else fails the stage with {@link UnexpectedResponseException};
 * transport failures keep their {@code ClientException}. Needs {@code parry-client} on the class path.
 *
 * <pre>{@code
 * JsonClient json = JsonClient.of(HttpClient.ofDefault(), JsonCodec.ofDefault());
 * Endpoint todos = Endpoint.parse("127.0.0.1:8081");
 * json.post(todos, "/todos", new NewTodo("write docs"), Todo.class)
 *         .thenAccept(todo -> log.info("created {}", todo.url()));
 * }</pre>
 */
public final class JsonClient {
    private static final int DEFAULT_MAX_RESPONSE_SIZE = 1 << 20;
    private static final int BODY_EXCERPT = 1024;

    private final ClientSender client;
    private final JsonCodec codec;
    private final int maxResponseSize;

    private JsonClient(ClientSender client, JsonCodec codec, int maxResponseSize) {
        this.client = client;
        this.codec = codec;
        this.maxResponseSize = maxResponseSize;
    }

    /** JSON calls through this client, reading response bodies up to 1 MiB. */
    public static JsonClient of(ClientSender client, JsonCodec codec) {
        return new JsonClient(
                requireNonNull(client, "client"), requireNonNull(codec, "codec"), DEFAULT_MAX_RESPONSE_SIZE);
    }

    /**
     * These calls with another response size limit.
     *
     * @throws IllegalArgumentException if the limit is not positive
     */
    public JsonClient withMaxResponseSize(int bytes) {
        if (bytes < 1) {
            throw new IllegalArgumentException("maxResponseSize: " + bytes + " (expected: > 0)");
        }
        return new JsonClient(client, codec, bytes);
    }

    /** {@code GET path}, decoding the response into the type. */
    public <T> CompletionStage<T> get(Endpoint endpoint, String path, Class<T> type) {
        return send(
                endpoint,
                HttpRequest.builder(HttpMethod.GET, path)
                        .header("accept", "application/json")
                        .build(),
                type);
    }

    /** {@code POST path} with the value as a JSON body, decoding the response into the type. */
    public <T> CompletionStage<T> post(Endpoint endpoint, String path, Object value, Class<T> type) {
        return send(endpoint, withJsonBody(HttpMethod.POST, path, value), type);
    }

    /** {@code PUT path} with the value as a JSON body, decoding the response into the type. */
    public <T> CompletionStage<T> put(Endpoint endpoint, String path, Object value, Class<T> type) {
        return send(endpoint, withJsonBody(HttpMethod.PUT, path, value), type);
    }

    /** Sends a request as it is and decodes a 2xx response into the type. */
    public <T> CompletionStage<T> send(Endpoint endpoint, HttpRequest request, Class<T> type) {
        requireNonNull(type, "type");
        return client.send(requireNonNull(endpoint, "endpoint"), requireNonNull(request, "request"))
                .thenCompose(response -> response.body()
                        .aggregate(maxResponseSize)
                        .handle((data, failure) -> decode(response, data, failure, type)));
    }

    private HttpRequest withJsonBody(HttpMethod method, String path, Object value) {
        return HttpRequest.builder(method, path)
                .header("content-type", MediaType.JSON.toString())
                .header("accept", "application/json")
                .body(HttpBody.of(codec.write(value)))
                .build();
    }

    private <T> T decode(HttpResponse response, HttpData data, Throwable failure, Class<T> type) {
        int status = response.status().code();
        if (failure != null) {
            throw new UnexpectedResponseException(
                    "the response body of status " + status + " is over " + maxResponseSize + " bytes or broke",
                    status,
                    "",
                    failure);
        }
        if (status < 200 || status > 299) {
            throw new UnexpectedResponseException("unexpected status " + status, status, excerpt(data), null);
        }
        try {
            return codec.read(data, type);
        } catch (InvalidInputException e) {
            throw new UnexpectedResponseException(
                    "the response body is not a " + type.getSimpleName() + ": " + e.getMessage(),
                    status,
                    excerpt(data),
                    e);
        }
    }

    private static String excerpt(HttpData data) {
        byte[] bytes = data.toByteArray();
        return new String(bytes, 0, Math.min(bytes.length, BODY_EXCERPT), StandardCharsets.UTF_8);
    }
}
