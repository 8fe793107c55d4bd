package io.parry.json;

import io.parry.server.RequestContext;

/**
 * The application's part of a typed JSON endpoint whose code may block (JDBC, file I/O, a
 * synchronous client). It runs on the server's worker executor ({@link RequestContext#runBlocking}:
 * virtual threads on JDK 21 and later), never on an event loop; its result becomes the response as
 * described in {@link JsonHandler}.
 *
 * <pre>{@code
 * BlockingJsonHandler<HttpRequest, List<Todo>> list = (ctx, request) -> repository.findAll();
 * }</pre>
 *
 * @param <I> the input type
 * @param <O> the output type
 */
@FunctionalInterface
public interface BlockingJsonHandler<I, O> {
    /** Answers one request, blocking if it must; {@code null} means 204. */
    O handle(RequestContext ctx, I input) throws Exception;
}
