package io.parry.http;

/** A body was longer than the limit that applies to it; answered with 413 (RFC 9110, section 15.5.14). */
public final class ContentTooLargeException extends HttpStatusException {
    private static final long serialVersionUID = 1L;

    private final long maxBytes;

    /** An exception for a body over {@code maxBytes}. */
    public ContentTooLargeException(long maxBytes) {
        super(HttpStatus.CONTENT_TOO_LARGE, "The request content is larger than " + maxBytes + " bytes.");
        this.maxBytes = maxBytes;
    }

    /** The limit that was exceeded, in bytes. */
    public long maxBytes() {
        return maxBytes;
    }
}
