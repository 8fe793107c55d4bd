package io.parry.gateway.internal.demo;

import io.parry.http.HttpRequest;
import io.parry.http.HttpResponse;
import io.parry.server.Handler;
import io.parry.server.RequestContext;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;

/**
 * A handler made after its server listens: requests that arrive before it exists wait for it, and
 * then run on their own event loop. Lets a demo service bind its port at once (so the port is never
 * chosen first and bound later, when something else may have taken it) and do its slow set-up after.
 */
final class LateHandler implements Handler {
    private final CompletableFuture<Handler> handler = new CompletableFuture<>();

    @Override
    public CompletionStage<HttpResponse> handle(RequestContext ctx, HttpRequest request) throws Exception {
        Handler ready = handler.getNow(null);
        if (ready != null) {
            return ready.handle(ctx, request);
        }
        return handler.thenComposeAsync(late -> handleNow(late, ctx, request), ctx.eventLoop());
    }

    /** Serves every request, waiting or to come, with this handler. */
    void complete(Handler late) {
        handler.complete(late);
    }

    /** Fails every request, waiting or to come, with this error. */
    void fail(Throwable error) {
        handler.completeExceptionally(error);
    }

    private static CompletionStage<HttpResponse> handleNow(Handler late, RequestContext ctx, HttpRequest request) {
        try {
            return late.handle(ctx, request);
        } catch (Exception e) {
            return CompletableFuture.failedFuture(e);
        }
    }
}
