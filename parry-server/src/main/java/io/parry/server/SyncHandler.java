package io.parry.server;

import io.parry.http.HttpRequest;
import io.parry.http.HttpResponse;

/**
 * Answers a request at once, on the event loop: a {@link Handler} without the stage. Turn one into a
 * handler with {@link Handler#sync(SyncHandler)}.
 *
 * <p>It must not block; code that waits belongs in a {@link Handler} returning a stage, or in a
 * {@link BlockingHandler}. A thrown exception becomes a problem response as for any handler.
 */
@FunctionalInterface
public interface SyncHandler {
    /** Answers one request; must not return {@code null}. */
    HttpResponse handle(RequestContext ctx, HttpRequest request) throws Exception;
}
