package io.parry.server;

import static java.util.Objects.requireNonNull;

import io.parry.http.HttpRequest;
import io.parry.http.HttpResponse;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;

/**
 * Answers a request: the one endpoint contract of Parry.
 *
 * <p>A handler runs on the connection's event loop and must not block it: return a stage that
 * completes later for work that waits, or wrap blocking code with {@link #blocking(BlockingHandler)}.
 * The stage may complete on any thread. A failed stage, or an exception thrown here, becomes an
 * {@code application/problem+json} response: {@link io.parry.http.HttpStatusException} gives its
 * status, anything else a 500 that reveals nothing of the failure. Pipelined requests are answered
 * in order whatever order their stages complete in.
 *
 * <pre>{@code
 * Handler hello = Handler.sync((ctx, request) -> HttpResponse.ofText("Hello, World!"));
 * Handler later = (ctx, request) -> store.find(request.queryParam("id").orElseThrow())
 *         .thenApply(HttpResponse::ofText);
 * }</pre>
 */
@FunctionalInterface
public interface Handler {

    /** Answers one request. */
    CompletionStage<HttpResponse> handle(RequestContext ctx, HttpRequest request) throws Exception;

    /** This handler wrapped by the filter: the filter sees each request first. */
    default Handler with(Filter filter) {
        requireNonNull(filter, "filter");
        Handler next = this;
        return (ctx, request) -> filter.filter(next, ctx, request);
    }

    /**
     * A handler that answers at once on the event loop, for code that needs no stage. A named factory
     * rather than an overload, so that implicitly typed lambdas stay unambiguous (JLS 15.12.2.5).
     */
    static Handler sync(SyncHandler handler) {
        requireNonNull(handler, "handler");
        return (ctx, request) -> CompletableFuture.completedFuture(
                requireNonNull(handler.handle(ctx, request), "the handler returned no response"));
    }

    /**
     * A handler that runs blocking code on the server's worker executor: virtual threads on JDK 21
     * and later, a bounded pool on JDK 17. When the executor is full the request is answered with 503
     * at once rather than queued without bound. The request's context is current on the worker.
     */
    static Handler blocking(BlockingHandler handler) {
        requireNonNull(handler, "handler");
        return (ctx, request) -> ctx.runBlocking(() -> handler.handle(ctx, request));
    }
}
