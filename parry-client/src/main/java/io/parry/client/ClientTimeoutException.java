package io.parry.client;

/** A timeout of {@link ClientTimeouts} expired; the connection in use, if any, is closed. */
public abstract class ClientTimeoutException extends ClientException {
    private static final long serialVersionUID = 1L;

    protected ClientTimeoutException(String message, boolean requestSent) {
        super(message, requestSent, null);
    }
}
