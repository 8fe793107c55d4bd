package io.parry.server.internal;

import io.netty.util.concurrent.FastThreadLocal;
import io.parry.http.HttpRequest;
import io.parry.http.HttpResponse;
import io.parry.server.Handler;
import io.parry.server.RequestContext;
import java.util.concurrent.Callable;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;

/** The request context of the running thread: set around every piece of work Parry runs for a request. */
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
        RequestContext previous = CURRENT.get();
        CURRENT.set(ctx);
        try {
            task.run();
        } finally {
            restore(previous);
        }
    }

    /** Calls the task with {@code ctx} current, restoring what was current before. */
    public static <V> V call(RequestContext ctx, Callable<V> task) throws Exception {
        RequestContext previous = CURRENT.get();
        CURRENT.set(ctx);
        try {
            return task.call();
        } finally {
            restore(previous);
        }
    }

    /** Runs the handler with {@code ctx} current; a throw or a null becomes a failed stage. */
    static CompletionStage<HttpResponse> handle(Handler handler, RequestContext ctx, HttpRequest request) {
        RequestContext previous = CURRENT.get();
        CURRENT.set(ctx);
        try {
            CompletionStage<HttpResponse> stage = handler.handle(ctx, request);
            return stage != null
                    ? stage
                    : CompletableFuture.failedFuture(new NullPointerException("handler returned null"));
        } catch (Throwable t) {
            return CompletableFuture.failedFuture(t);
        } finally {
            restore(previous);
        }
    }

    private static void restore(RequestContext previous) {
        CURRENT.set(previous);
    }
}
