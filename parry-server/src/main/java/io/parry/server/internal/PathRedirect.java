package io.parry.server.internal;

/**
 * Thrown by {@link TargetNormalizer} when escaped slashes were unescaped and the listener redirects:
 * the client is to ask again for {@link #location()}. Carries no stack trace; it is an answer, not a
 * failure.
 */
final class PathRedirect extends RuntimeException {
    private static final long serialVersionUID = 1L;

    private final String location;

    PathRedirect(String location) {
        super(null, null, false, false);
        this.location = location;
    }

    /** The normalised path and the query as received. */
    String location() {
        return location;
    }
}
