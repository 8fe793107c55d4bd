package io.parry.client;

/** The upstream's response broke HTTP/1.1 framing or a client limit; the connection is closed. */
public final class InvalidResponseException extends ClientException {
    private static final long serialVersionUID = 1L;

    /** A malformed or oversized response. */
    public InvalidResponseException(String message, Throwable cause) {
        super(message, true, cause);
    }
}
