package io.parry.client;

/**
 * Why a call failed. {@link #requestSent()} says whether any byte of the request may have reached the
 * upstream, which decides whether a retry is safe for a non-idempotent request.
 */
public abstract class ClientException extends RuntimeException {
    private static final long serialVersionUID = 1L;

    private final boolean requestSent;

    protected ClientException(String message, boolean requestSent, Throwable cause) {
        super(message, cause);
        this.requestSent = requestSent;
    }

    /** Whether any byte of the request may have reached the upstream. */
    public boolean requestSent() {
        return requestSent;
    }
}
