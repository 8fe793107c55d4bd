package io.parry.client;

/** The call did not finish within the whole-call timeout. */
public final class CallTimeoutException extends ClientTimeoutException {
    private static final long serialVersionUID = 1L;

    /** Expired after {@code timeout}; {@code requestSent} says whether request bytes were written. */
    public CallTimeoutException(Endpoint endpoint, java.time.Duration timeout, boolean requestSent) {
        super("calling " + endpoint.authority() + " took longer than " + timeout.toMillis() + " ms", requestSent);
    }
}
