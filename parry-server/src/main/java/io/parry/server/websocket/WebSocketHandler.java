package io.parry.server.websocket;

import io.parry.http.HttpResponse;
import io.parry.server.RequestContext;
import java.util.concurrent.CompletionStage;

/**
 * Answers a WebSocket opening handshake that {@link WebSocketEndpoint} found valid: with {@link
 * WebSocketHandshake#accept} to open a session, or with any other response to refuse the upgrade (a
 * status and headers of the application's choosing, such as 401 or 404). Runs as a {@link
 * io.parry.server.Handler} does, on the connection's event loop, after the filters and the router.
 *
 * <pre>{@code
 * WebSocketHandler echo = (ctx, handshake) -> handshake.accept(session -> session.messages().subscribe(...)).toStage();
 * }</pre>
 */
@FunctionalInterface
public interface WebSocketHandler {
    /** The response to the handshake: {@code handshake.accept(...)} or a refusal. */
    CompletionStage<HttpResponse> handshake(RequestContext ctx, WebSocketHandshake handshake);
}
