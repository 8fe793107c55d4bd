package io.parry.json;

/**
 * A JSON call got a response it cannot turn into the expected value: a status outside 2xx, a body
 * that is not JSON of the expected type, or a body over the size limit.
 */
public final class UnexpectedResponseException extends RuntimeException {
    private static final long serialVersionUID = 1L;

    private final int status;
    private final String body;

    /** A response with this status and (the start of) this body. */
    public UnexpectedResponseException(String message, int status, String body, Throwable cause) {
        super(message, cause);
        this.status = status;
        this.body = body;
    }

    /** The response's status. */
    public int status() {
        return status;
    }

    /** The start of the response body as text (at most 1 KiB), for logs; empty when it was not read. */
    public String body() {
        return body;
    }
}
