package io.parry.http;

import static java.util.Objects.requireNonNull;

/**
 * Ends an exchange with a chosen status. The server answers with an RFC 9457 problem whose
 * {@code detail} is this exception's message, so the message must be fit for the client to read.
 * Throw it from a handler or complete a handler's stage with it.
 */
public class HttpStatusException extends RuntimeException {
    private static final long serialVersionUID = 1L;

    private final transient HttpStatus status;

    /** An exception for this status with no detail for the client. */
    public HttpStatusException(HttpStatus status) {
        this(status, null, null);
    }

    /** An exception for this status with a detail the client may read. */
    public HttpStatusException(HttpStatus status, String detail) {
        this(status, detail, null);
    }

    /** An exception for this status with a detail the client may read and the failure behind it (not shown). */
    public HttpStatusException(HttpStatus status, String detail, Throwable cause) {
        super(detail, cause, false, false);
        this.status = requireNonNull(status, "status");
    }

    /** The status to answer with. */
    public HttpStatus status() {
        return status;
    }

    /** The detail for the client, or {@code null}. */
    public String detail() {
        return getMessage();
    }
}
