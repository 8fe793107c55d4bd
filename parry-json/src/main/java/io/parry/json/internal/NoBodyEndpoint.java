package io.parry.json.internal;

import io.parry.http.HttpRequest;
import io.parry.http.HttpResponse;
import io.parry.json.InvalidInputException;
import io.parry.server.Handler;
import io.parry.server.RequestContext;
import java.util.concurrent.CompletionStage;

/** A typed JSON endpoint with no content to read: the handler's input is the request itself. */
public final class NoBodyEndpoint implements Handler {
    private final Invocation<HttpRequest> invocation;

    public NoBodyEndpoint(Invocation<HttpRequest> invocation) {
        this.invocation = invocation;
    }

    @Override
    public CompletionStage<HttpResponse> handle(RequestContext ctx, HttpRequest request) throws Exception {
        try {
            return invocation.invoke(ctx, request, request);
        } catch (InvalidInputException e) {
            return Problems.invalidInput(ctx, request, e).toStage();
        }
    }
}
