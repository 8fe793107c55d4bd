package io.parry.client;

/** No connection was opened within the connect timeout; nothing was sent. */
public final class ConnectTimeoutException extends ClientTimeoutException {
    private static final long serialVersionUID = 1L;

    /** Expired after {@code timeout}. */
    public ConnectTimeoutException(Endpoint endpoint, java.time.Duration timeout) {
        super("connecting to " + endpoint.authority() + " took longer than " + timeout.toMillis() + " ms", false);
    }
}
