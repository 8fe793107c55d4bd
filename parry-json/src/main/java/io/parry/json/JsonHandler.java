package io.parry.json;

import io.parry.server.RequestContext;
import java.util.concurrent.CompletionStage;

/**
 * The application's part of a typed JSON endpoint: takes the decoded (and validated) input and
 * returns a stage of the output. It runs on the connection's event loop and must not block; use
 * {@link BlockingJsonHandler} for code that does.
 *
 * <p>The stage's value becomes the response: a {@link JsonResult} gives status, headers and body; an
 * {@link io.parry.http.HttpResponse} is sent as it is; any other value is a 200 with that value as JSON; {@code null} is a 204 with no body. A failed stage or
 * a thrown exception becomes a problem, as for any {@link io.parry.server.Handler}; an {@link
 * InvalidInputException} becomes a 400 listing its fields.
 *
 * <pre>{@code
 * JsonHandler<NewTodo, JsonResult<Todo>> create = (ctx, todo) -> store.add(todo)
 *         .thenApply(saved -> JsonResult.created("/todos/" + saved.id(), saved));
 * }</pre>
 *
 * @param <I> the input type
 * @param <O> the output type
 */
@FunctionalInterface
public interface JsonHandler<I, O> {
    /** Answers one request; must not return {@code null} (return a stage of {@code null} for a 204). */
    CompletionStage<O> handle(RequestContext ctx, I input) throws Exception;
}
