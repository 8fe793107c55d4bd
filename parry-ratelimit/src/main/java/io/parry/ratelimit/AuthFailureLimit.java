package io.parry.ratelimit;

import static java.util.Objects.requireNonNull;

import io.parry.http.HttpRequest;
import io.parry.http.HttpResponse;
import io.parry.http.HttpStatus;
import io.parry.http.Problem;
import io.parry.ratelimit.internal.BucketName;
import io.parry.ratelimit.internal.RateLimitFields;
import io.parry.ratelimit.internal.TokenBuckets;
import io.parry.server.Filter;
import io.parry.server.Handler;
import io.parry.server.RequestContext;
import java.util.concurrent.CompletionStage;
import java.util.function.LongSupplier;

/**
 * A limit on the authentication failures of each client, checked before the authentication filter it
 * guards runs: a client whose failures used up its bucket is answered {@code 429 Too Many Requests}
 * with {@code Retry-After} (whole seconds, at least 1) without its credentials being looked at.
 *
 * <p>Authentication runs before rate limits (so that a limit may be keyed by a verified claim), and so a
 * flood of forged tokens or password guesses would cost a signature verification or a password hash each.
 * This limit closes that gap: only a {@code 401} that the guarded filter itself answered takes a token
 * (one that the handler it wraps answered does not), and a request that finds its client's bucket empty
 * is refused first. Requests that authenticate take nothing, so a client with good credentials is never
 * slowed; a flooding client costs at most {@code burst} checks, plus those its concurrent requests
 * started before the failures that emptied its bucket came back.
 *
 * <pre>{@code
 * AuthFailureLimit failures = AuthFailureLimit.builder(
 *                 RateLimit.builder().rate(10).period(Duration.ofMinutes(1)).burst(20).build())
 *         .key(RateLimitKey.clientAddress(trustedProxies))
 *         .build();
 * router.get("/orders", orders, route -> route.filter(failures.guard(jwtFilter)));
 * }</pre>
 *
 * <p>Buckets live in this process, at most {@code maxKeys} of them (default 100,000), swept as {@link
 * LocalRateLimiter}'s are; asking whether a client may try adds no bucket. Thread-safe, lock-free, runs
 * on the request's event loop.
 */
public final class AuthFailureLimit {
    private final RateLimit limit;
    private final RateLimitKey key;
    private final TokenBuckets buckets;
    private final LongSupplier nanoClock;

    private AuthFailureLimit(Builder builder) {
        this.limit = builder.limit;
        this.key = builder.key;
        this.buckets = new TokenBuckets(limit, builder.maxKeys);
        this.nanoClock = builder.nanoClock;
    }

    /** A builder for this limit on failures: keyed by the TCP peer's address, 100,000 keys at most. */
    public static Builder builder(RateLimit limit) {
        return new Builder(requireNonNull(limit, "limit"));
    }

    /** The failures each client may have: {@code burst} at once, then {@code rate} per {@code period}. */
    public RateLimit limit() {
        return limit;
    }

    /** Clients whose failures are remembered now: at most about {@code maxKeys}. */
    public int keys() {
        return buckets.size();
    }

    /**
     * The authentication filter, run only for clients with failures left; its {@code 401} answers count.
     * Filters guarded by one limit share its buckets, so a client cannot spread guesses over routes.
     */
    public Filter guard(Filter authentication) {
        requireNonNull(authentication, "authentication");
        return (next, ctx, request) -> attempt(authentication, next, ctx, request);
    }

    private CompletionStage<HttpResponse> attempt(
            Filter authentication, Handler next, RequestContext ctx, HttpRequest request) throws Exception {
        String name = key.key(ctx, request);
        if (name == null) {
            return authentication.filter(next, ctx, request);
        }
        String client = BucketName.of(name);
        long wait = buckets.waitNanos(client, nanoClock.getAsLong());
        if (wait > 0) {
            return tooManyFailures(wait).toStage();
        }
        Attempt attempt = new Attempt(next);
        return authentication.filter(attempt, ctx, request).thenApply(response -> {
            if (!attempt.passed && response.status().code() == HttpStatus.UNAUTHORIZED.code()) {
                buckets.acquire(client, nanoClock.getAsLong());
            }
            return response;
        });
    }

    private static HttpResponse tooManyFailures(long waitNanos) {
        long retryAfter = RateLimitFields.seconds(waitNanos);
        return Problem.of(HttpStatus.TOO_MANY_REQUESTS)
                .detail("Too many failed authentication attempts; retry in " + retryAfter
                        + (retryAfter == 1 ? " second." : " seconds."))
                .toResponse()
                .withHeader("Retry-After", Long.toString(retryAfter));
    }

    @Override
    public String toString() {
        return "AuthFailureLimit{" + limit + "}";
    }

    /** The handler after authentication, noting that the request got that far. */
    private static final class Attempt implements Handler {
        private final Handler next;
        private volatile boolean passed;

        Attempt(Handler next) {
            this.next = next;
        }

        @Override
        public CompletionStage<HttpResponse> handle(RequestContext ctx, HttpRequest request) throws Exception {
            passed = true;
            return next.handle(ctx, request);
        }
    }

    /** Builds an {@link AuthFailureLimit}; not thread-safe. */
    public static final class Builder {
        private final RateLimit limit;
        private RateLimitKey key = RateLimitKey.clientAddress();
        private int maxKeys = LocalRateLimiter.DEFAULT_MAX_KEYS;
        private LongSupplier nanoClock = System::nanoTime;

        private Builder(RateLimit limit) {
            this.limit = limit;
        }

        /**
         * Sets whose failures a bucket counts (default: the TCP peer's address; behind proxies, {@link
         * RateLimitKey#clientAddress(io.parry.http.AddressBlocks)}). A key from the credentials themselves
         * (a header) would let a client open a fresh bucket per guess.
         */
        public Builder key(RateLimitKey key) {
            this.key = requireNonNull(key, "key");
            return this;
        }

        /** Sets about how many clients' buckets are kept at most (default 100,000). */
        public Builder maxKeys(int maxKeys) {
            this.maxKeys = maxKeys;
            return this;
        }

        /** Sets the clock of nanoseconds, as {@link System#nanoTime()}: for tests. */
        Builder nanoClock(LongSupplier nanoClock) {
            this.nanoClock = requireNonNull(nanoClock, "nanoClock");
            return this;
        }

        /**
         * The limit.
         *
         * @throws IllegalArgumentException if {@code maxKeys} is not positive
         */
        public AuthFailureLimit build() {
            if (maxKeys <= 0) {
                throw new IllegalArgumentException("maxKeys: " + maxKeys + " (expected: > 0)");
            }
            return new AuthFailureLimit(this);
        }
    }
}
