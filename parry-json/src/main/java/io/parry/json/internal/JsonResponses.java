package io.parry.json.internal;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.ObjectWriter;
import io.parry.http.HttpBody;
import io.parry.http.HttpData;
import io.parry.http.HttpHeaders;
import io.parry.http.HttpRequest;
import io.parry.http.HttpResponse;
import io.parry.http.HttpStatus;
import io.parry.http.MediaType;
import io.parry.json.InvalidInputException;
import io.parry.json.JsonResult;
import io.parry.server.RequestContext;
import java.io.UncheckedIOException;
import java.util.concurrent.CompletionException;

/** Turns a handler's output into a response: JSON encoded once into one array, sent without a copy. */
final class JsonResponses {
    private static final HttpResponse NO_CONTENT = HttpResponse.of(HttpStatus.NO_CONTENT);

    private final ObjectWriter writer;

    JsonResponses(ObjectWriter writer) {
        this.writer = writer;
    }

    HttpResponse of(Object output) {
        if (output == null) {
            return NO_CONTENT;
        }
        if (output instanceof HttpResponse response) {
            return response;
        }
        if (!(output instanceof JsonResult)) {
            return HttpResponse.of(HttpStatus.OK, MediaType.JSON, encode(output));
        }
        JsonResult<?> result = (JsonResult<?>) output;
        HttpHeaders extra = result.headers();
        if (result.body() == null) {
            return HttpResponse.of(result.status(), extra, HttpBody.empty());
        }
        HttpResponse response = HttpResponse.of(result.status(), MediaType.JSON, encode(result.body()));
        if (extra.isEmpty()) {
            return response;
        }
        return response.mapHeaders(headers -> {
            if (extra.contains("content-type")) {
                headers.remove("content-type"); // the result's type, say application/vnd.api+json, wins
            }
            extra.forEach(headers::add);
        });
    }

    /** The response for a handler's stage outcome; a failure other than invalid input passes on. */
    HttpResponse of(RequestContext ctx, HttpRequest request, Object output, Throwable failure) {
        if (failure == null) {
            return of(output);
        }
        Throwable cause =
                failure instanceof CompletionException && failure.getCause() != null ? failure.getCause() : failure;
        if (cause instanceof InvalidInputException) {
            return Problems.invalidInput(ctx, request, (InvalidInputException) cause);
        }
        throw failure instanceof CompletionException ? (CompletionException) failure : new CompletionException(failure);
    }

    private HttpData encode(Object value) {
        try {
            return HttpData.wrap(writer.writeValueAsBytes(value));
        } catch (JsonProcessingException e) {
            throw new UncheckedIOException(e);
        }
    }
}
