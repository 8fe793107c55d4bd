package io.parry.client;

import io.parry.http.HttpData;
import io.parry.http.HttpHeaders;
import io.parry.http.HttpStatus;

/**
 * A WebSocket handshake the server answered with a final response instead of {@code 101}: its status,
 * header fields and the first bytes of its body (up to 64 KiB; the rest is dropped).
 */
public final class WebSocketRefusedException extends RuntimeException {
    private static final long serialVersionUID = 1L;

    private final transient HttpStatus status;
    private final transient HttpHeaders headers;
    private final transient HttpData body;

    public WebSocketRefusedException(HttpStatus status, HttpHeaders headers, HttpData body) {
        super("the WebSocket handshake was answered with " + status);
        this.status = status;
        this.headers = headers;
        this.body = body;
    }

    /** The response's status. */
    public HttpStatus status() {
        return status;
    }

    /** The response's header fields. */
    public HttpHeaders headers() {
        return headers;
    }

    /** The start of the response's body. */
    public HttpData body() {
        return body;
    }
}
