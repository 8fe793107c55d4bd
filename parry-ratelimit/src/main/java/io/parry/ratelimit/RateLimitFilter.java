package io.parry.ratelimit;

import static java.util.Objects.requireNonNull;

import io.parry.http.HttpRequest;
import io.parry.http.HttpResponse;
import io.parry.http.HttpStatus;
import io.parry.http.Problem;
import io.parry.ratelimit.internal.BucketName;
import io.parry.ratelimit.internal.RateLimitFields;
import io.parry.server.Filter;
import io.parry.server.Handler;
import io.parry.server.RequestContext;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.concurrent.CompletionStage;

/**
 * A filter that lets a request pass only if its bucket in a {@link RateLimiter} has a token, and answers
 * {@code 429 Too Many Requests} otherwise: an RFC 9457 problem with {@code Retry-After} (whole seconds,
 * rounded up, at least 1).
 *
 * <p>Responses carry the {@code RateLimit-Policy} and {@code RateLimit} fields of
 * draft-ietf-httpapi-ratelimit-headers-10, for example {@code RateLimit-Policy: "hello";q=100;w=1} and
 * {@code RateLimit: "hello";r=42;t=1}: the quota is the burst, the window the seconds an empty bucket
 * takes to fill, {@code r} the tokens left and {@code t} the seconds until the bucket is full. Nested limits (a
 * route's inside a global one) each add their own item to both lists (RFC 9110, section 5.3: field lines combine).
 *
 * <p>Per route, or for the whole server as one global limit:
 *
 * <pre>{@code
 * RateLimitFilter perClient = RateLimitFilter.builder(LocalRateLimiter.of(RateLimit.perSecond(100)))
 *         .name("hello")
 *         .key(RateLimitKey.clientAddress())
 *         .build();
 * router.get("/hello", hello, route -> route.filter(perClient));
 * }</pre>
 *
 * <p>A key longer than 64 characters (a header value the client chose may be kilobytes) reaches the
 * limiter as a SHA-256 digest of it, so a flood of distinct long values costs each bucket no more
 * than a short key.
 *
 * <p>Protection filters run in this order: IP rules, authentication, limits (so a limit may be keyed by
 * a verified claim), then the rest. Runs on the request's event loop and never blocks; a limiter that
 * cannot decide (a shared store down, with a fail-closed policy) has the request answered {@code 503} with
 * {@code Retry-After: 1}.
 */
public final class RateLimitFilter implements Filter {
    private final RateLimiter limiter;
    private final LocalRateLimiter local;
    private final RateLimitKey key;
    private final String name;
    private final RateLimitObserver observer;
    private final boolean fields;
    private final RateLimitFields formats;

    private RateLimitFilter(Builder builder) {
        this.limiter = builder.limiter;
        this.local = limiter instanceof LocalRateLimiter l ? l : null;
        this.key = builder.key;
        this.name = builder.name;
        this.observer = builder.observer;
        this.fields = builder.fields;
        this.formats = new RateLimitFields(name, limiter.limit());
    }

    /** A builder for a filter over this limiter: keyed by the TCP peer's address, named {@code default}. */
    public static Builder builder(RateLimiter limiter) {
        return new Builder(requireNonNull(limiter, "limiter"));
    }

    /** The limiter the filter asks. */
    public RateLimiter limiter() {
        return limiter;
    }

    /** The name metrics and the {@code RateLimit} fields give this limit. */
    public String name() {
        return name;
    }

    @Override
    public CompletionStage<HttpResponse> filter(Handler next, RequestContext ctx, HttpRequest request)
            throws Exception {
        String name = key.key(ctx, request);
        if (name == null) {
            return next.handle(ctx, request);
        }
        String bucket = BucketName.of(name);
        if (local != null) {
            return decided(local.tryAcquire(bucket), next, ctx, request);
        }
        CompletionStage<RateLimitDecision> pending = limiter.acquire(ctx, bucket);
        if (pending instanceof CompletableFuture<RateLimitDecision> now
                && now.isDone()
                && !now.isCompletedExceptionally()) {
            // Decided without waiting (a token reserved earlier): no continuation stages for it.
            return decided(now.join(), next, ctx, request);
        }
        return pending.handle((decision, failure) -> {
                    if (failure != null) {
                        // The limit's name (the metrics' route tag), not the client's key the local holds.
                        observer.failed(this.name);
                        return unavailable(failure);
                    }
                    try {
                        return decided(decision, next, ctx, request);
                    } catch (Exception e) {
                        return CompletableFuture.<HttpResponse>failedFuture(e);
                    }
                })
                .thenCompose(response -> response);
    }

    private CompletionStage<HttpResponse> decided(
            RateLimitDecision decision, Handler next, RequestContext ctx, HttpRequest request) throws Exception {
        if (!decision.allowed()) {
            observer.limited(name);
            return tooManyRequests(decision).toStage();
        }
        observer.allowed(name);
        CompletionStage<HttpResponse> response = next.handle(ctx, request);
        if (!fields || !decision.known()) {
            return response;
        }
        String policy = formats.policy();
        String rateLimit = formats.rateLimit(decision);
        // Added, not set: a limit nested in another (a route's inside a global one) lists both policies.
        return response.thenApply(r -> r.mapHeaders(
                headers -> headers.add(RateLimitFields.POLICY, policy).add(RateLimitFields.RATE_LIMIT, rateLimit)));
    }

    private static CompletionStage<HttpResponse> unavailable(Throwable failure) {
        Throwable cause =
                failure instanceof CompletionException && failure.getCause() != null ? failure.getCause() : failure;
        if (!(cause instanceof RateLimiterUnavailableException unavailable)) {
            return CompletableFuture.failedFuture(cause);
        }
        HttpResponse problem = Problem.of(HttpStatus.SERVICE_UNAVAILABLE)
                .detail(unavailable.detail())
                .toResponse();
        return problem.withHeader("Retry-After", "1").toStage();
    }

    private HttpResponse tooManyRequests(RateLimitDecision decision) {
        long retryAfter = RateLimitFields.seconds(decision.retryAfterNanos());
        HttpResponse problem = Problem.of(HttpStatus.TOO_MANY_REQUESTS)
                .detail("Rate limit exceeded; retry in " + retryAfter + (retryAfter == 1 ? " second." : " seconds."))
                .toResponse();
        return problem.mapHeaders(headers -> {
            headers.set("Retry-After", Long.toString(retryAfter));
            if (fields) {
                headers.set(RateLimitFields.POLICY, formats.policy())
                        .set(RateLimitFields.RATE_LIMIT, formats.rateLimit(decision));
            }
        });
    }

    @Override
    public String toString() {
        return "RateLimitFilter{name=" + name + ", limiter=" + limiter + "}";
    }

    /** Builds a {@link RateLimitFilter}; not thread-safe. */
    public static final class Builder {
        private final RateLimiter limiter;
        private RateLimitKey key = RateLimitKey.clientAddress();
        private String name = "default";
        private RateLimitObserver observer = RateLimitObserver.NONE;
        private boolean fields = true;

        private Builder(RateLimiter limiter) {
            this.limiter = limiter;
        }

        /** Sets what a request's bucket is (default: the TCP peer's address). */
        public Builder key(RateLimitKey key) {
            this.key = requireNonNull(key, "key");
            return this;
        }

        /**
         * Sets the limit's name (default {@code default}): the policy's name in the {@code RateLimit} fields
         * and what the observer is told, a route's name as a rule.
         */
        public Builder name(String name) {
            this.name = requireNonNull(name, "name");
            return this;
        }

        /** Sets who is told each decision (default: nobody). */
        public Builder observer(RateLimitObserver observer) {
            this.observer = requireNonNull(observer, "observer");
            return this;
        }

        /** Sets whether responses carry the {@code RateLimit-Policy} and {@code RateLimit} fields (default true). */
        public Builder fields(boolean fields) {
            this.fields = fields;
            return this;
        }

        /**
         * The filter.
         *
         * @throws IllegalArgumentException if the name is empty
         */
        public RateLimitFilter build() {
            if (name.isEmpty()) {
                throw new IllegalArgumentException("name: empty (expected: a name such as the route's)");
            }
            return new RateLimitFilter(this);
        }
    }
}
