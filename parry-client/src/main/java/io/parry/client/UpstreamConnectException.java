package io.parry.client;

/** A connection could not be opened: the name did not resolve, or the upstream refused or is unreachable. */
public final class UpstreamConnectException extends ClientException {
    private static final long serialVersionUID = 1L;

    /** A failure to connect to the endpoint, for the given cause. */
    public UpstreamConnectException(Endpoint endpoint, Throwable cause) {
        super("cannot connect to " + endpoint.authority() + ": " + cause.getMessage(), false, cause);
    }
}
