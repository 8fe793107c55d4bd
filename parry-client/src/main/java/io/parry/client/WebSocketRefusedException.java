package io.parry.client;

import io.parry.http.HttpResponse;

/** A WebSocket handshake the server answered with a final response instead of {@code 101}. */
public final class WebSocketRefusedException extends RuntimeException {
    private static final long serialVersionUID = 1L;

    private final transient HttpResponse response;

    public WebSocketRefusedException(HttpResponse response) {
        super("the WebSocket handshake was answered with " + response.status());
        this.response = response;
    }

    /** The server's response; its body is the caller's to read or cancel. */
    public HttpResponse response() {
        return response;
    }
}
