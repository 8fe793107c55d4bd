package io.parry.client;

import static java.util.Objects.requireNonNull;

/**
 * How a WebSocket connection ended: the status code and reason of the close frame received (RFC 6455,
 * section 7.4), {@code 1005} when the frame had no code, or {@code 1006} when the connection ended
 * without one.
 *
 * @param code the close status code
 * @param reason the reason, possibly empty
 */
public record WebSocketClose(int code, String reason) {
    /** The code of a connection that ended without a close frame (RFC 6455, section 7.1.5). */
    public static final int ABNORMAL = 1006;

    public WebSocketClose {
        requireNonNull(reason, "reason");
    }
}
