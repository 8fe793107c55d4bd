package io.parry.client;

/** The call did not finish within the whole-call timeout. */
public final class CallTimeoutException extends ClientTimeoutException {
    private static final long serialVersionUID = 1L;

    /** Expired after {@code timeout}; {@code requestSent} says whether request bytes were written. */
    public CallTimeoutException(Endpoint endpoint, java.time.Duration timeout, boolean requestSent) {
        this(endpoint, timeout, requestSent, false);
    }

    /**
     * Expired after {@code timeout}; {@code callerStalled} says that the caller had stopped reading the
     * response, so the time was lost on its side ({@link #callerCaused()}).
     */
    public CallTimeoutException(
            Endpoint endpoint, java.time.Duration timeout, boolean requestSent, boolean callerStalled) {
        super(
                "calling " + endpoint.authority() + " took longer than " + timeout.toMillis() + " ms"
                        + (callerStalled ? " while the caller was not reading the response" : ""),
                requestSent,
                callerStalled);
    }
}
