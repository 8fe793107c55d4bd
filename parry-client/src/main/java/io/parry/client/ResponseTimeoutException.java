package io.parry.client;

/** The response headers did not arrive within the response-headers timeout. */
public final class ResponseTimeoutException extends ClientTimeoutException {
    private static final long serialVersionUID = 1L;

    /** Expired after {@code timeout}; {@code requestSent} says whether request bytes were written. */
    public ResponseTimeoutException(Endpoint endpoint, java.time.Duration timeout, boolean requestSent) {
        super(
                "waiting for response headers from " + endpoint.authority() + " took longer than " + timeout.toMillis()
                        + " ms",
                requestSent);
    }
}
