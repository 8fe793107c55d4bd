package io.parry.annotations.processor.items;

import io.parry.http.HttpRequest;
import io.parry.http.HttpResponse;
import io.parry.http.HttpStatus;
import io.parry.server.ErrorHandler;
import io.parry.server.RequestContext;

/** Answers an {@link UnsupportedOperationException} with 418. */
public final class TeapotErrors implements ErrorHandler {
    @Override
    public HttpResponse handle(RequestContext ctx, HttpRequest request, Throwable cause) {
        return cause instanceof UnsupportedOperationException ? HttpResponse.of(HttpStatus.of(418)) : null;
    }
}
