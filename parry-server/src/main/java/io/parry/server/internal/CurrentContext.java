package io.parry.server.internal;

import io.netty.util.concurrent.FastThreadLocal;
import io.parry.http.HttpRequest;
import io.parry.http.HttpResponse;
import io.parry.server.Handler;
import io.parry.server.RequestContext;
import io.parry.transport.spi.CurrentCaller;
import java.util.concurrent.Callable;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;

/**
 * The request context of the running thread: set around every piece of work Parry runs for a request,
 * with the request's ids in the SLF4J MDC (see {@link RequestMdc}), and for the client in {@link
 * CurrentCaller}.
 */
public final class CurrentContext {
    /** Netty's thread local: an indexed slot on event-loop threads, cheaper than a hash lookup per request. */
    private static final FastThreadLocal<RequestContext> CURRENT = new FastThreadLocal<>();

    private CurrentContext() {}

    /** The current context, or {@code null}. */
    public static RequestContext get() {
        return CURRENT.get();
    }

    /** Runs the task with {@code ctx} current, restoring what was current before. */
    public static void run(RequestContext ctx, Runnable task) {
        RequestContext previous = enter(ctx);
        try {
            task.run();
        } finally {
            exit(ctx, previous);
        }
    }

    /** Calls the task with {@code ctx} current, restoring what was current before. */
    public static <V> V call(RequestContext ctx, Callable<V> task) throws Exception {
        RequestContext previous = enter(ctx);
        try {
            return task.call();
        } finally {
            exit(ctx, previous);
        }
    }

    /**
     * Calls the work with {@code ctx} current and completes {@code result} with its outcome while it
     * is still current, so the stages chained on the result that run at once run in the request's
     * context too.
     */
    public static <V> void complete(RequestContext ctx, Callable<V> work, CompletableFuture<V> result) {
        RequestContext previous = enter(ctx);
        try {
            result.complete(work.call());
        } catch (Throwable t) {
            result.completeExceptionally(t);
        } finally {
            exit(ctx, previous);
        }
    }

    /** Runs the handler with {@code ctx} current; a throw or a null becomes a failed stage. */
    static CompletionStage<HttpResponse> handle(Handler handler, RequestContext ctx, HttpRequest request) {
        RequestContext previous = enter(ctx);
        try {
            CompletionStage<HttpResponse> stage = handler.handle(ctx, request);
            return stage != null
                    ? stage
                    : CompletableFuture.failedFuture(new NullPointerException("handler returned null"));
        } catch (Throwable t) {
            return CompletableFuture.failedFuture(t);
        } finally {
            exit(ctx, previous);
        }
    }

    /**
     * Makes {@code ctx} current without a task, for code that cannot afford a lambda per call; pair
     * with {@link #exit} in a {@code finally}.
     *
     * @return what was current before, for {@link #exit}
     */
    static RequestContext enter(RequestContext ctx) {
        RequestContext previous = CURRENT.get();
        CURRENT.set(ctx);
        // As with the MDC, an application's wrapper context leaves the client's view of the request as it is.
        if (ctx instanceof TracedContext) {
            CurrentCaller.set((TracedContext) ctx);
        }
        RequestMdc.entered(ctx, previous);
        return previous;
    }

    /** Makes {@code previous} current again after {@link #enter}. */
    static void exit(RequestContext ctx, RequestContext previous) {
        CURRENT.set(previous);
        if (ctx instanceof TracedContext) {
            CurrentCaller.set(previous instanceof TracedContext ? (TracedContext) previous : null);
        }
        RequestMdc.exited(ctx, previous);
    }
}
