package io.parry.server;

import io.parry.http.HttpRequest;
import io.parry.http.HttpResponse;
import io.parry.server.internal.ErrorHandlerFilter;

/**
 * Maps a failure to a response. Handlers form a chain (route, then router, then server, then Parry's
 * default): each returns {@code null} for failures it does not handle, and the next one is asked.
 * The default answers {@link io.parry.http.HttpStatusException} with its status and anything else
 * with a 500 problem that reveals nothing, logging it once with the request id.
 *
 * <pre>{@code
 * ErrorHandler notFound = (ctx, request, cause) -> cause instanceof NoSuchTodoException
 *         ? Problem.of(HttpStatus.NOT_FOUND).detail(cause.getMessage()).toResponse()
 *         : null;
 * }</pre>
 *
 * <p>Runs on the thread where the failure surfaced; it must not block and should not throw (a throw
 * is treated as an unhandled failure of its own).
 */
@FunctionalInterface
public interface ErrorHandler {
    /** The response for this failure, or {@code null} to let the next handler in the chain decide. */
    HttpResponse handle(RequestContext ctx, HttpRequest request, Throwable cause);

    /** A filter that answers the failures of whatever it wraps with this handler, passing on the rest. */
    default Filter asFilter() {
        return new ErrorHandlerFilter(this);
    }

    /** This handler, then {@code next} for what this one leaves. */
    default ErrorHandler orElse(ErrorHandler next) {
        ErrorHandler first = this;
        return (ctx, request, cause) -> {
            HttpResponse response = first.handle(ctx, request, cause);
            return response != null ? response : next.handle(ctx, request, cause);
        };
    }
}
