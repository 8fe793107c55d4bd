package io.parry.proxy;

import io.parry.http.HttpRequest;
import io.parry.http.HttpResponse;
import io.parry.server.Handler;
import io.parry.server.RequestContext;
import java.util.concurrent.CompletionStage;

/** A gateway handler a test sets once its upstream's port is known. */
final class SwappableHandler implements Handler {
    private volatile Handler handler;

    void set(Handler handler) {
        this.handler = handler;
    }

    @Override
    public CompletionStage<HttpResponse> handle(RequestContext ctx, HttpRequest request) throws Exception {
        return handler.handle(ctx, request);
    }
}
