package io.parry.client;

/**
 * The request body failed on the caller's side: its source signalled an error (for a proxied request,
 * the downstream client sent a malformed or oversized body, stalled, or went away), or it did not
 * match its declared {@code Content-Length}. The upstream did nothing wrong, so this must not count
 * against it: not towards a circuit breaker, outlier ejection or its error metrics. {@link
 * #getCause()} is the body's own failure. Part of the request may have left ({@link #requestSent()}
 * is true), and the connection is closed.
 */
public final class RequestBodyException extends ClientException {
    private static final long serialVersionUID = 1L;

    /** The request body failed for {@code cause}. */
    public RequestBodyException(String message, Throwable cause) {
        super(message, true, true, cause);
    }
}
