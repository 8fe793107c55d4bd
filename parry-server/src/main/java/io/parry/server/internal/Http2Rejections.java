package io.parry.server.internal;

import io.netty.handler.codec.http2.Http2Exception;
import io.parry.server.Rejection;

/**
 * Names the {@link Rejection} of an HTTP/2 connection error. Netty's defences end a connection with
 * ENHANCE_YOUR_CALM and a message, not a type of their own, so the message tells which one fired.
 */
final class Http2Rejections {
    private Http2Rejections() {}

    static Rejection of(Http2Exception error) {
        String message = error.getMessage() == null ? "" : error.getMessage();
        if (message.contains("RST frames frames")) {
            return Rejection.HTTP2_CAUSED_RESETS; // Http2MaxRstFrameLimitEncoder: resets the server sent.
        }
        if (message.contains("RST frames")) {
            return Rejection.HTTP2_RAPID_RESET;
        }
        if (message.contains("continuations frames")) {
            return Rejection.HTTP2_CONTINUATION_FLOOD;
        }
        if (message.contains("empty data frames")) {
            return Rejection.HTTP2_EMPTY_FRAME_FLOOD;
        }
        if (message.contains("control frames")) {
            return Rejection.HTTP2_CONTROL_FLOOD;
        }
        if (message.contains("Header size exceeded")) {
            return Rejection.HTTP2_HEADER_BOMB;
        }
        return Rejection.HTTP2_PROTOCOL_ERROR;
    }
}
