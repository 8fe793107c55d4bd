package io.parry.server.internal;

import io.parry.http.HttpRequest;
import io.parry.http.HttpResponse;
import io.parry.http.HttpStatus;
import io.parry.http.Problem;
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
 * before anyone reads the request body; otherwise counts the request in flight until its handler
 * answers. The framing then drains a small unread body or closes the connection on a large one.
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
        OverloadReason refusal = state.refusal(priority);
        if (refusal != null) {
            return shed(refusal);
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

    private CompletionStage<HttpResponse> shed(OverloadReason reason) {
        long seconds = state.retryAfterSeconds();
        // RFC 9110, section 15.6.4: 503 with Retry-After says the condition is temporary.
        return Problem.of(HttpStatus.SERVICE_UNAVAILABLE)
                .detail("The server is overloaded (" + detail(reason) + "); retry in " + seconds
                        + (seconds == 1 ? " second." : " seconds."))
                .toResponse()
                .withHeader("Retry-After", Long.toString(seconds))
                .toStage();
    }

    private static String detail(OverloadReason reason) {
        return switch (reason) {
            case EVENT_LOOP_LAG -> "event loops behind";
            case IN_FLIGHT -> "too many requests in flight";
            case HEAP -> "heap";
            case DIRECT_MEMORY -> "direct memory";
        };
    }

    @Override
    public String toString() {
        return "SheddingFilter{" + priority + "}";
    }
}
