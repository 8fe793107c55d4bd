package io.parry.client;

/** Every connection to the endpoint is busy and the queue of waiting calls is full; nothing was sent. */
public final class PoolExhaustedException extends ClientException {
    private static final long serialVersionUID = 1L;

    /** The pool of this endpoint is full. */
    public PoolExhaustedException(Endpoint endpoint) {
        super("the connection pool of " + endpoint.authority() + " is exhausted", false, null);
    }
}
