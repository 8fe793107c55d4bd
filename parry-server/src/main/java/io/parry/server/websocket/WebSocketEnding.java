package io.parry.server.websocket;

/** Why WebSocket sessions ended, as {@link WebSocketCounters} counts them. */
public enum WebSocketEnding {
    /** The client sent a close frame first. */
    CLIENT_CLOSED,
    /** The application closed the session. */
    SERVER_CLOSED,
    /** The client broke a protocol rule: closed with 1002. */
    PROTOCOL_ERROR,
    /** A text message that is not UTF-8: closed with 1007. */
    INVALID_UTF8,
    /** A frame or message over its limit, compressed or not: closed with 1009. */
    TOO_BIG,
    /**
     * The client did not take what was sent to it: a send found more than {@link
     * WebSocketOptions#maxSendQueue()} bytes waiting; closed with 1008.
     */
    SEND_QUEUE_FULL,
    /** Nothing received or sent for the idle timeout: closed with 1001. */
    IDLE_TIMEOUT,
    /** The client did not answer the server's close frame in time; the connection was closed. */
    CLOSE_TIMEOUT,
    /** The server stopped: closed with 1001. */
    SHUTDOWN,
    /** The connection ended without a close handshake (1006). */
    CONNECTION_LOST,
    /** The application or the server failed: closed with 1011. */
    INTERNAL_ERROR
}
