package io.parry.ratelimit;

import io.parry.http.HttpStatus;
import io.parry.http.HttpStatusException;

/**
 * A limiter could not decide, its store being slow or down, and its policy refuses requests then: the
 * request is answered {@code 503 Service Unavailable} with {@code Retry-After: 1}.
 */
public final class RateLimiterUnavailableException extends HttpStatusException {
    private static final long serialVersionUID = 1L;

    /** An exception saying why, for the log; the client is told only that the limiter is unavailable. */
    public RateLimiterUnavailableException(Throwable cause) {
        super(HttpStatus.SERVICE_UNAVAILABLE, "The rate limiter is unavailable; retry in 1 second.", cause);
    }
}
