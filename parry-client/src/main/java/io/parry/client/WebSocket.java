package io.parry.client;

import io.parry.http.HttpHeaders;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.Flow;

/**
 * An open client WebSocket connection (RFC 6455): messages in as a publisher with backpressure,
 * messages, pings and the close out. Thread-safe; signals and stages complete on the connection's
 * event loop.
 *
 * <p>Messages the subscriber of {@link #messages()} has not asked for are held up to 64 KiB (or one message, if
 * larger); then the connection stops reading from its socket, so a slow reader slows the peer down through TCP. Below
 * that, it reads on without demand, so that pings are answered with pongs and a close frame is answered with the same
 * code at once (RFC 6455, section 5.5); then the connection closes, {@link #messages()} completes once its subscriber
 * has taken what was held, and {@link #closed()} completes with the code. A close sent behind more than that is read
 * when the subscriber asks. A connection that breaks fails {@link #messages()} with {@link
 * ConnectionClosedException} and completes {@link #closed()} with {@code 1006}. Closing the {@link HttpClient}
 * closes its WebSockets with {@code 1001}, going away.
 *
 * <pre>{@code
 * WebSocket ws = WebSocketClient.of(httpClient).connect(Endpoint.parse("127.0.0.1:8080"), "/ws/echo")
 *         .toCompletableFuture().join();
 * ws.sendText("hello");
 * }</pre>
 */
public interface WebSocket {
    /** The header fields of the {@code 101} response that opened the connection. */
    HttpHeaders handshakeHeaders();

    /** The messages received, for one subscriber; a subscriber that cancels closes the connection with 1001. */
    Flow.Publisher<WebSocketMessage> messages();

    /** Sends a text message; the stage completes when it is written to the socket. */
    CompletionStage<Void> sendText(String text);

    /** Sends a binary message; the stage completes when it is written to the socket. */
    CompletionStage<Void> sendBinary(byte[] bytes);

    /** Sends a ping with up to 125 bytes of application data. */
    CompletionStage<Void> ping(byte[] data);

    /**
     * Starts the close handshake with this code and reason (RFC 6455, section 7.4.1); the connection
     * closes when the peer answers, or when it closes its side. Meanwhile it reads on for the answer, and drops the
     * messages beyond those held that nobody asked for.
     */
    CompletionStage<Void> close(int code, String reason);

    /** Closes the socket at once, without a close frame. */
    void abort();

    /** Completes when the connection has ended, with the close the peer sent. */
    CompletionStage<WebSocketClose> closed();

    /** Whether the socket takes writes without queueing them beyond its high-water mark. */
    boolean isWritable();
}
