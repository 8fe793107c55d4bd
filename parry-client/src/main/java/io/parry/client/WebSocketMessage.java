package io.parry.client;

import static java.util.Objects.requireNonNull;

import io.parry.http.HttpData;

/**
 * One whole WebSocket message, text or binary (RFC 6455, section 5.6), its fragments joined.
 *
 * @param isText whether the message is text, which is UTF-8
 * @param data the message's bytes
 */
public record WebSocketMessage(boolean isText, HttpData data) {
    public WebSocketMessage {
        requireNonNull(data, "data");
    }

    /** A text message. */
    public static WebSocketMessage text(String text) {
        return new WebSocketMessage(true, HttpData.ofUtf8(text));
    }

    /** A binary message. */
    public static WebSocketMessage binary(byte[] bytes) {
        return new WebSocketMessage(false, HttpData.copyOf(bytes));
    }

    /** The message's bytes read as UTF-8. */
    public String text() {
        return data.toStringUtf8();
    }
}
