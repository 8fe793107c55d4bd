package io.parry.server.websocket;

/**
 * How a WebSocket session ended: the close code and reason (RFC 6455, section 7.4) of the close
 * frame that ended it, 1005 for a close frame without a code, or 1006 when the connection ended
 * without a close frame; and which side closed first.
 *
 * @param code the close code
 * @param reason the close reason, possibly empty
 * @param byClient whether the client sent the first close frame, or broke the connection
 */
public record WebSocketClose(int code, String reason, boolean byClient) {
    /** Normal closure. */
    public static final int NORMAL = 1000;
    /** The server is going away (stopping), or the session was idle. */
    public static final int GOING_AWAY = 1001;
    /** A protocol error. */
    public static final int PROTOCOL_ERROR = 1002;
    /** A close frame without a code (never sent). */
    public static final int NO_STATUS = 1005;
    /** The connection ended without a close frame (never sent). */
    public static final int ABNORMAL = 1006;
    /** Text that is not UTF-8, or data not consistent with the message's type. */
    public static final int INVALID_PAYLOAD = 1007;
    /** The peer broke a policy of the endpoint's (for the server: it did not read what was sent to it). */
    public static final int POLICY_VIOLATION = 1008;
    /** A frame or message too big to process. */
    public static final int TOO_BIG = 1009;
    /** The server failed. */
    public static final int INTERNAL_ERROR = 1011;

    /** Whether an application may send this code in a close frame (RFC 6455, section 7.4). */
    public static boolean isSendable(int code) {
        return (code >= 1000 && code <= 1003) || (code >= 1007 && code <= 1014) || (code >= 3000 && code <= 4999);
    }
}
