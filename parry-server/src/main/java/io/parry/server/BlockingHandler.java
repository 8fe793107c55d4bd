package io.parry.server;

import io.parry.http.HttpRequest;
import io.parry.http.HttpResponse;

/**
 * Answers a request with code that may block (JDBC, file I/O, a synchronous client). Runs on a
 * worker thread, never on an event loop; see {@link Handler#blocking(BlockingHandler)}.
 */
@FunctionalInterface
public interface BlockingHandler {
    /** Answers one request, blocking if it must. */
    HttpResponse handle(RequestContext ctx, HttpRequest request) throws Exception;
}
