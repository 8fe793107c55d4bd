package io.parry.client;

/**
 * The connection closed or was reset before the response was complete. When {@link #requestSent()}
 * is false, nothing reached the upstream and any request can be retried.
 */
public final class ConnectionClosedException extends ClientException {
    private static final long serialVersionUID = 1L;

    /** The connection to the endpoint closed early. */
    public ConnectionClosedException(String message, boolean requestSent, Throwable cause) {
        super(message, requestSent, cause);
    }
}
