package io.parry.json.internal;

import com.fasterxml.jackson.databind.ObjectWriter;
import io.parry.http.HttpRequest;
import io.parry.http.HttpResponse;
import io.parry.json.BlockingJsonHandler;
import io.parry.json.InvalidInputException;
import io.parry.json.JsonHandler;
import io.parry.json.SyncJsonHandler;
import io.parry.server.RequestContext;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;

/** Runs the application's handler on a decoded input and turns its output into a response. */
@FunctionalInterface
public interface Invocation<I> {

    CompletionStage<HttpResponse> invoke(RequestContext ctx, HttpRequest request, I input) throws Exception;

    /** On the calling thread (the event loop); one stage added to the handler's, encoding the output. */
    static <I, O> Invocation<I> async(JsonHandler<I, O> handler, ObjectWriter writer) {
        JsonResponses responses = new JsonResponses(writer);
        return (ctx, request, input) ->
                handler.handle(ctx, input).handle((output, failure) -> responses.of(ctx, request, output, failure));
    }

    /** On the calling thread (the event loop), encoded at once: no stage but the completed one. */
    static <I, O> Invocation<I> sync(SyncJsonHandler<I, O> handler, ObjectWriter writer) {
        JsonResponses responses = new JsonResponses(writer);
        return (ctx, request, input) -> CompletableFuture.completedFuture(responses.of(handler.handle(ctx, input)));
    }

    /** On the worker executor, where the output is encoded too. */
    static <I, O> Invocation<I> blocking(BlockingJsonHandler<I, O> handler, ObjectWriter writer) {
        JsonResponses responses = new JsonResponses(writer);
        return (ctx, request, input) -> ctx.runBlocking(() -> {
            try {
                return responses.of(handler.handle(ctx, input));
            } catch (InvalidInputException e) {
                return Problems.invalidInput(ctx, request, e);
            }
        });
    }
}
