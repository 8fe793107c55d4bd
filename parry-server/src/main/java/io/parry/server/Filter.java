package io.parry.server;

import static java.util.Objects.requireNonNull;

import io.parry.http.HttpRequest;
import io.parry.http.HttpResponse;
import java.util.concurrent.CompletionStage;

/**
 * Wraps a handler: it may change the request, answer on its own, or change the response that the
 * next handler returns. Filters run on the same thread as handlers and follow the same rules: never
 * block, fail with {@link io.parry.http.HttpStatusException} for a chosen status.
 *
 * <pre>{@code
 * Filter poweredBy = (next, ctx, request) -> next.handle(ctx, request)
 *         .thenApply(response -> response.withHeader("x-powered-by", "parry"));
 * }</pre>
 */
@FunctionalInterface
public interface Filter {

    /** Handles a request, usually by calling {@code next}. */
    CompletionStage<HttpResponse> filter(Handler next, RequestContext ctx, HttpRequest request) throws Exception;

    /** A filter that runs this one, then {@code inner} inside it. */
    default Filter andThen(Filter inner) {
        requireNonNull(inner, "inner");
        Filter outer = this;
        return (next, ctx, request) -> outer.filter(next.with(inner), ctx, request);
    }
}
