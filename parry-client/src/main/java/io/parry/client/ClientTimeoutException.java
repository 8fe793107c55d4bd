package io.parry.client;

/** A timeout of {@link ClientTimeouts} expired; the connection in use, if any, is closed. */
public abstract class ClientTimeoutException extends ClientException {
    private static final long serialVersionUID = 1L;

    protected ClientTimeoutException(String message, boolean requestSent) {
        super(message, requestSent, null);
    }

    /** Expired, because the caller stopped reading the response when {@code callerCaused}. */
    protected ClientTimeoutException(String message, boolean requestSent, boolean callerCaused) {
        super(message, requestSent, callerCaused, null);
    }
}
