package io.parry.client;

/**
 * A connection could not be opened for want of a resource of this process or host, not of the
 * upstream: no file descriptor was left for a socket ({@code EMFILE}, {@code ENFILE}), or no local
 * port or socket buffer. Nothing was sent, and the upstream played no part in it, so a proxy must not
 * count it against the upstream (breaker, outlier ejection, retries); clients that open many
 * connections to a proxy can cause it.
 */
public final class LocalResourceException extends ClientException {
    private static final long serialVersionUID = 1L;

    /** A failure to open a connection to the endpoint, for the local cause. */
    public LocalResourceException(Endpoint endpoint, Throwable cause) {
        super(
                "no local resources for a connection to " + endpoint.authority() + ": " + innermostMessage(cause),
                false,
                cause);
    }

    /** Netty wraps the system call's failure ("Too many open files") in an exception of its own. */
    private static String innermostMessage(Throwable cause) {
        String message = cause.getMessage();
        for (Throwable next = cause.getCause(); next != null && next != cause; next = next.getCause()) {
            if (next.getMessage() != null) {
                message = next.getMessage();
            }
            cause = next;
        }
        return message;
    }
}
