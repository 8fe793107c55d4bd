package io.parry.server.websocket;

import io.parry.http.HttpData;
import java.net.InetSocketAddress;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.Flow;

/**
 * An open WebSocket connection, as its application sees it: the messages the client sends, and ways to
 * send messages, pings and the close frame.
 *
 * <p>{@link #messages()} has one subscriber, which gets messages as it requests them, on the
 * connection's event loop: while it requests none, the server stops reading the socket, so a slow
 * reader slows its client down instead of filling memory. The publisher completes when the client's
 * close frame arrives, and fails when the connection ends without one.
 *
 * <p>Every method may be called from any thread. A send returns a stage that completes when the frame
 * was written to the socket, or fails when the session is closing or closed; waiting for it before the
 * next send keeps a slow client from filling memory. Pings from the client are answered with pongs by
 * the server.
 */
public interface WebSocketSession {
    /** The messages the client sends; subscribe once. */
    Flow.Publisher<WebSocketMessage> messages();

    /** Sends a text message. */
    CompletionStage<Void> sendText(String text);

    /** Sends a binary message. */
    CompletionStage<Void> sendBinary(HttpData data);

    /**
     * Sends a message, or a fragment of one when {@link WebSocketMessage#isLast()} is false: the
     * fragments that follow continue the same message until one is last.
     */
    CompletionStage<Void> send(WebSocketMessage message);

    /** Sends a ping with up to 125 bytes of data; the client answers with a pong. */
    CompletionStage<Void> ping(HttpData data);

    /**
     * Starts the close handshake: sends a close frame with this code and reason (at most 123 bytes in
     * UTF-8), then waits for the client's close frame up to the close timeout before the connection
     * closes. Messages that arrive meanwhile are dropped. The stage completes when the close frame was
     * written; {@link #closed()} when the connection has closed.
     *
     * @throws IllegalArgumentException if an application may not send the code ({@link WebSocketClose#isSendable})
     *     or the reason is too long
     */
    CompletionStage<Void> close(int code, String reason);

    /** Completes once the connection has closed, with how the session ended. */
    CompletionStage<WebSocketClose> closed();

    /** Whether neither side has begun closing. */
    boolean isOpen();

    /** The subprotocol the handshake chose, or {@code null}. */
    String subprotocol();

    /** The request id of the handshake that opened the session, as the access log shows it. */
    String id();

    /** The client's address. */
    InetSocketAddress remoteAddress();
}
