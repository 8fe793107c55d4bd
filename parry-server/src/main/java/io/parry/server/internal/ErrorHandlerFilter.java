package io.parry.server.internal;

import io.parry.http.HttpRequest;
import io.parry.http.HttpResponse;
import io.parry.server.ErrorHandler;
import io.parry.server.Filter;
import io.parry.server.Handler;
import io.parry.server.RequestContext;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;

/** Answers the failures of the handler it wraps with an {@link ErrorHandler}; unanswered ones pass on. */
public final class ErrorHandlerFilter implements Filter {
    private final ErrorHandler errorHandler;

    public ErrorHandlerFilter(ErrorHandler errorHandler) {
        this.errorHandler = errorHandler;
    }

    @Override
    public CompletionStage<HttpResponse> filter(Handler next, RequestContext ctx, HttpRequest request) {
        CompletionStage<HttpResponse> stage;
        try {
            stage = next.handle(ctx, request);
        } catch (Throwable t) {
            stage = CompletableFuture.failedFuture(t);
        }
        return stage.exceptionallyCompose(failure -> {
            HttpResponse response = errorHandler.handle(ctx, request, ErrorResponses.unwrap(failure));
            return response != null
                    ? CompletableFuture.completedFuture(response)
                    : CompletableFuture.failedFuture(failure);
        });
    }
}
