package io.parry.server.sse;

import io.parry.http.HttpRequest;
import io.parry.server.RequestContext;
import java.util.concurrent.Flow;

/**
 * The events of one {@code text/event-stream} response, for {@link ServerSentEvents#handler}. Called on
 * the connection's event loop, as a handler is.
 */
@FunctionalInterface
public interface EventSource {
    /**
     * The events for this request. {@code lastEventId} is the {@code Last-Event-ID} a reconnecting
     * client sent (the id of the last event it saw), or {@code null}; a source that can resume starts
     * after it. The publisher is cancelled when the client goes away.
     */
    Flow.Publisher<ServerSentEvent> open(RequestContext ctx, HttpRequest request, String lastEventId);
}
