package io.parry.json;

import io.parry.server.RequestContext;

/**
 * The application's part of a typed JSON endpoint that answers at once, on the event loop: a {@link
 * JsonHandler} without the stage. It must not block (see {@link BlockingJsonHandler} for code that
 * does); its result becomes the response as described in {@link JsonHandler}.
 *
 * <pre>{@code
 * SyncJsonHandler<HttpRequest, List<Todo>> list = (ctx, request) -> store.all();
 * }</pre>
 *
 * @param <I> the input type
 * @param <O> the output type
 */
@FunctionalInterface
public interface SyncJsonHandler<I, O> {
    /** Answers one request; {@code null} means 204. */
    O handle(RequestContext ctx, I input) throws Exception;
}
