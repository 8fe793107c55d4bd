package io.parry.client;

/**
 * Why a call failed. {@link #requestSent()} says whether any byte of the request may have reached the
 * upstream, which decides whether a retry is safe for a non-idempotent request. {@link #callerCaused()}
 * says whether the caller's side, not the upstream, caused it.
 */
public abstract class ClientException extends RuntimeException {
    private static final long serialVersionUID = 1L;

    private final boolean requestSent;
    private final boolean callerCaused;

    /** A failure the upstream may have caused. */
    protected ClientException(String message, boolean requestSent, Throwable cause) {
        this(message, requestSent, false, cause);
    }

    /** A failure, caused by the caller's side when {@code callerCaused}. */
    protected ClientException(String message, boolean requestSent, boolean callerCaused, Throwable cause) {
        super(message, cause);
        this.requestSent = requestSent;
        this.callerCaused = callerCaused;
    }

    /** Whether any byte of the request may have reached the upstream. */
    public boolean requestSent() {
        return requestSent;
    }

    /**
     * Whether the caller's side caused the failure rather than the upstream: the request body failed
     * ({@link RequestBodyException}), or the caller stopped reading the response until a timeout
     * expired. Such a failure says nothing about the upstream's health, so a proxy must not count it
     * against the upstream (breaker, outlier ejection, retries, error metrics).
     */
    public boolean callerCaused() {
        return callerCaused;
    }
}
