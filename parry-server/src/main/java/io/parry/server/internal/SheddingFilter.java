package io.parry.server.internal;

import io.parry.http.HttpRequest;
import io.parry.http.HttpResponse;
import io.parry.server.Filter;
import io.parry.server.Handler;
import io.parry.server.OverloadReason;
import io.parry.server.Priority;
import io.parry.server.RequestContext;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;
import java.util.function.BiConsumer;

/**
 * Answers 503 with {@code Retry-After} at once while the process is overloaded for this priority,
 * before anyone reads the request body; otherwise, while {@code maxInFlight} is on, counts the
 * request in flight until its handler answers. The framing then drains a small unread body or closes the connection on a large one.
 */
public final class SheddingFilter implements Filter {
    private final OverloadState state;
    private final Priority priority;
    /** Given to each pending stage: no lambda per request. */
    private final BiConsumer<Object, Throwable> exit;

    public SheddingFilter(OverloadState state, Priority priority) {
        this.state = state;
        this.priority = priority;
        this.exit = (result, failure) -> state.exit();
    }

    @Override
    public CompletionStage<HttpResponse> filter(Handler next, RequestContext ctx, HttpRequest request)
            throws Exception {
        OverloadState.Settings settings = state.settings();
        OverloadReason refusal = state.refusal(priority, settings);
        if (refusal != null) {
            return settings.answers[refusal.ordinal()];
        }
        if (!settings.counting) {
            return next.handle(ctx, request);
        }
        state.enter();
        CompletionStage<HttpResponse> stage;
        try {
            stage = next.handle(ctx, request);
        } catch (Exception | Error e) {
            state.exit();
            throw e;
        }
        if (stage instanceof CompletableFuture<HttpResponse> done && done.isDone()) {
            state.exit();
        } else {
            stage.whenComplete(exit);
        }
        return stage;
    }

    @Override
    public String toString() {
        return "SheddingFilter{" + priority + "}";
    }
}
