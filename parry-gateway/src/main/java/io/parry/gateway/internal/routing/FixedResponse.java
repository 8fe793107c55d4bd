package io.parry.gateway.internal.routing;

import static java.util.Objects.requireNonNull;

import io.parry.http.HttpData;
import io.parry.http.HttpRequest;
import io.parry.http.HttpResponse;
import io.parry.http.HttpStatus;
import io.parry.http.MediaType;
import io.parry.server.Handler;
import io.parry.server.RequestContext;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;

/** Answers every request with the same response, built once: a fixed body may be sent many times. */
public final class FixedResponse implements Handler {
    private final CompletionStage<HttpResponse> response;

    private FixedResponse(HttpResponse response) {
        this.response = CompletableFuture.completedFuture(response);
    }

    /**
     * A handler answering this status, body (UTF-8, none when empty), content type and headers.
     *
     * @throws IllegalArgumentException if the status, content type or a header is invalid
     */
    public static FixedResponse of(int status, String body, String contentType, Map<String, String> headers) {
        requireNonNull(body, "body");
        requireNonNull(contentType, "contentType");
        HttpResponse.Builder builder = HttpResponse.builder(HttpStatus.of(status));
        if (!body.isEmpty()) {
            builder.body(MediaType.parse(contentType), HttpData.ofUtf8(body));
        }
        headers.forEach(builder::header);
        return new FixedResponse(builder.build());
    }

    @Override
    public CompletionStage<HttpResponse> handle(RequestContext ctx, HttpRequest request) {
        return response;
    }
}
