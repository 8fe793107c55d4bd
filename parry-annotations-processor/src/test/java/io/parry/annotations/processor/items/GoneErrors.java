package io.parry.annotations.processor.items;

import io.parry.http.HttpRequest;
import io.parry.http.HttpResponse;
import io.parry.http.HttpStatus;
import io.parry.server.ErrorHandler;
import io.parry.server.RequestContext;

/** Answers an {@link UnsupportedOperationException} or an {@link IllegalStateException} with 410. */
public final class GoneErrors implements ErrorHandler {
    @Override
    public HttpResponse handle(RequestContext ctx, HttpRequest request, Throwable cause) {
        return cause instanceof UnsupportedOperationException || cause instanceof IllegalStateException
                ? HttpResponse.of(HttpStatus.of(410))
                : null;
    }
}
