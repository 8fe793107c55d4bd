package io.parry.client;

/** No response body chunk arrived within the body-idle timeout. */
public final class BodyTimeoutException extends ClientTimeoutException {
    private static final long serialVersionUID = 1L;

    /** Expired after {@code timeout}; {@code requestSent} says whether request bytes were written. */
    public BodyTimeoutException(Endpoint endpoint, java.time.Duration timeout, boolean requestSent) {
        super(
                "waiting for the response body from " + endpoint.authority() + " took longer than " + timeout.toMillis()
                        + " ms",
                requestSent);
    }
}
