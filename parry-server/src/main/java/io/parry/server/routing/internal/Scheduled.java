package io.parry.server.routing.internal;

import io.parry.http.HttpResponse;
import io.parry.http.HttpStatus;
import io.parry.http.HttpStatusException;
import io.parry.server.Handler;
import io.parry.server.RequestContext;
import io.parry.server.internal.CurrentContext;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.Executor;
import java.util.concurrent.RejectedExecutionException;

/**
 * Moves a route's handler off the event loop: to the server's worker executor, or to an executor the
 * application named. The handler's stage is awaited on that thread, so the handler may block.
 */
public final class Scheduled {
    private Scheduled() {}

    /** The handler run by {@link RequestContext#runBlocking} on the server's worker executor. */
    public static Handler onWorkers(Handler handler) {
        return (ctx, request) -> ctx.runBlocking(() -> await(handler.handle(ctx, request)));
    }

    /** The handler run on this executor with the request's context current; 503 when it refuses the task. */
    public static Handler on(Executor executor, Handler handler) {
        return (ctx, request) -> {
            CompletableFuture<HttpResponse> result = new CompletableFuture<>();
            try {
                executor.execute(() -> CurrentContext.complete(ctx, () -> await(handler.handle(ctx, request)), result));
            } catch (RejectedExecutionException e) {
                result.completeExceptionally(new HttpStatusException(
                        HttpStatus.SERVICE_UNAVAILABLE, "The server is busy; try again later.", e));
            }
            return result;
        };
    }

    private static HttpResponse await(CompletionStage<HttpResponse> stage) throws Exception {
        if (stage == null) {
            throw new NullPointerException("handler returned null");
        }
        try {
            return stage.toCompletableFuture().get();
        } catch (ExecutionException e) {
            Throwable cause = e.getCause();
            if (cause instanceof Exception) {
                throw (Exception) cause;
            }
            throw e;
        }
    }
}
