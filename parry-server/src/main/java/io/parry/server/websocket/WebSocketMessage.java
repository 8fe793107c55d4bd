package io.parry.server.websocket;

import static java.util.Objects.requireNonNull;

import io.parry.http.HttpData;

/**
 * A WebSocket message received or to send: text or binary, and its bytes. A whole message unless the
 * endpoint streams fragments ({@link WebSocketOptions#streamFragments()}): then each frame is a
 * message of its own and {@link #isLast()} marks the one that ends it. Immutable.
 */
public final class WebSocketMessage {
    private final boolean text;
    private final HttpData data;
    private final boolean last;

    private WebSocketMessage(boolean text, HttpData data, boolean last) {
        this.text = text;
        this.data = requireNonNull(data, "data");
        this.last = last;
    }

    /** A whole text message. */
    public static WebSocketMessage text(String text) {
        return new WebSocketMessage(true, HttpData.ofUtf8(requireNonNull(text, "text")), true);
    }

    /** A whole binary message. */
    public static WebSocketMessage binary(HttpData data) {
        return new WebSocketMessage(false, data, true);
    }

    /**
     * A message or one fragment of it: text ({@code data} in UTF-8; a fragment may end inside a
     * character) or binary; {@code last} is false for a fragment that more follow.
     */
    public static WebSocketMessage of(boolean text, HttpData data, boolean last) {
        return new WebSocketMessage(text, data, last);
    }

    /** Whether this is a text message (or a fragment of one). */
    public boolean isText() {
        return text;
    }

    /** The message's bytes: UTF-8 for text. */
    public HttpData data() {
        return data;
    }

    /** The text of a text message. */
    public String text() {
        if (!text) {
            throw new IllegalStateException("a binary message has no text");
        }
        return data.toStringUtf8();
    }

    /** Whether this ends its message: always true unless fragments are streamed. */
    public boolean isLast() {
        return last;
    }

    @Override
    public String toString() {
        return (text ? "text(" : "binary(") + data.length() + " bytes" + (last ? ")" : ", more follow)");
    }
}
