package io.parry.proxy;

import io.github.resilience4j.circuitbreaker.CircuitBreaker;
import io.parry.client.ClientException;
import io.parry.client.ConnectionClosedException;
import io.parry.client.Endpoint;
import io.parry.client.upstream.Upstream;
import io.parry.http.HttpBody;
import io.parry.http.HttpData;
import io.parry.http.HttpMethod;
import io.parry.http.HttpRequest;
import io.parry.http.HttpResponse;
import io.parry.http.HttpStatusException;
import io.parry.proxy.internal.DownstreamResponses;
import io.parry.proxy.internal.UpstreamRequests;
import io.parry.server.RequestContext;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.Flow;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.TimeUnit;

/**
 * One proxied request: picks an endpoint, sends, and on a retryable failure tries again elsewhere.
 * Everything here runs on the downstream connection's event loop (the client completes on the loop
 * it was called from), so the fields need no synchronisation.
 */
final class ProxyCall {
    private static final Throwable FAILED_STATUS = new StatusFailure();

    private final ProxyHandler proxy;
    private final RequestContext ctx;
    private final HttpRequest request;
    private final GuardedUpstream group;
    private final Upstream upstream;
    private final boolean replayable;
    private final CompletableFuture<HttpResponse> result = new CompletableFuture<>();
    private final List<Endpoint> tried = new ArrayList<>(2);
    private List<Endpoint> refused;
    private CompletableFuture<HttpResponse> inFlight;
    private Throwable lastFailure;
    private int attempts;
    private boolean cancelled;

    ProxyCall(ProxyHandler proxy, RequestContext ctx, HttpRequest request, GuardedUpstream group, boolean replayable) {
        this.proxy = proxy;
        this.ctx = ctx;
        this.request = request;
        this.group = group;
        this.upstream = group.upstream();
        this.replayable = replayable;
    }

    CompletableFuture<HttpResponse> start() {
        ctx.clientGone().thenRun(this::cancel);
        attempt();
        return result;
    }

    private void attempt() {
        if (cancelled) {
            return;
        }
        Endpoint endpoint = choose();
        if (endpoint == null) {
            fail(
                    lastFailure != null
                            ? ProxyFailures.of(lastFailure, upstream.name())
                            : ProxyFailures.noEndpoint(upstream.name()));
            return;
        }
        attempts++;
        SentBody sent = replayable ? null : new SentBody(request.body());
        HttpRequest outbound = UpstreamRequests.prepare(
                sent == null ? request : request.withBody(sent),
                ctx,
                endpoint,
                proxy.path,
                proxy.host,
                proxy.requestHeaders,
                proxy.forwarding);
        CircuitBreaker breaker = group.breaker(endpoint);
        upstream.callStarted(endpoint);
        long startNanos = System.nanoTime();
        CompletableFuture<HttpResponse> call = (proxy.timeouts == null
                        ? group.client().send(endpoint, outbound)
                        : group.client().send(endpoint, outbound, proxy.timeouts))
                .toCompletableFuture();
        inFlight = call;
        call.whenComplete((response, failure) -> answered(endpoint, breaker, startNanos, sent, response, failure));
    }

    /** The next endpoint: an untried one if possible, any healthy one otherwise; breakers permitting. */
    private Endpoint choose() {
        for (int i = 0; i <= upstream.endpoints().size(); i++) {
            Optional<Endpoint> candidate = upstream.select(e -> !tried.contains(e) && !isRefused(e));
            if (candidate.isEmpty() && !tried.isEmpty()) {
                candidate = upstream.select(e -> !isRefused(e));
            }
            if (candidate.isEmpty()) {
                return null;
            }
            Endpoint endpoint = candidate.get();
            CircuitBreaker breaker = group.breaker(endpoint);
            if (breaker == null || breaker.tryAcquirePermission()) {
                tried.add(endpoint);
                return endpoint;
            }
            if (refused == null) {
                refused = new ArrayList<>(2);
            }
            refused.add(endpoint);
        }
        return null;
    }

    private boolean isRefused(Endpoint endpoint) {
        return refused != null && refused.contains(endpoint);
    }

    private void answered(
            Endpoint endpoint,
            CircuitBreaker breaker,
            long startNanos,
            SentBody sent,
            HttpResponse response,
            Throwable failure) {
        inFlight = null;
        long elapsed = System.nanoTime() - startNanos;
        if (cancelled) {
            if (breaker != null) {
                breaker.releasePermission();
            }
            upstream.callFinished(endpoint, true);
            if (response != null) {
                discard(response);
            }
            return;
        }
        if (failure != null) {
            Throwable cause = ProxyFailures.unwrap(failure);
            if (breaker != null) {
                breaker.onError(elapsed, TimeUnit.NANOSECONDS, cause);
            }
            upstream.callFinished(endpoint, false);
            lastFailure = cause;
            if (mayRetry(cause, sent)) {
                retryLater();
            } else {
                fail(ProxyFailures.of(cause, upstream.name()));
            }
            return;
        }
        boolean failedStatus =
                proxy.retry.retryStatuses().contains(response.status().code());
        if (failedStatus) {
            if (breaker != null) {
                breaker.onError(elapsed, TimeUnit.NANOSECONDS, FAILED_STATUS);
            }
            upstream.callFinished(endpoint, false);
            if (mayRetryStatus(sent)) {
                discard(response);
                lastFailure = null;
                retryLater();
                return;
            }
        } else if (breaker != null) {
            breaker.onSuccess(elapsed, TimeUnit.NANOSECONDS);
        }
        result.complete(downstream(response, endpoint, !failedStatus));
    }

    private HttpResponse downstream(HttpResponse response, Endpoint endpoint, boolean countsForEndpoint) {
        HttpBody body = response.body();
        long length = request.method().equals(HttpMethod.HEAD) ? headContentLength(response) : body.contentLength();
        ObservedBody observed = new ObservedBody(body, length, failure -> {
            if (countsForEndpoint) {
                upstream.callFinished(endpoint, failure == null || failure == ObservedBody.CANCELLED);
            }
            group.exit();
        });
        return DownstreamResponses.prepare(response.withBody(observed), proxy.responseHeaders, proxy.forwarding);
    }

    /** A response to HEAD has no body but announces the length a GET would have. */
    private static long headContentLength(HttpResponse response) {
        String value = response.headers().get("content-length");
        if (value == null) {
            return -1;
        }
        try {
            return Long.parseLong(value);
        } catch (NumberFormatException e) {
            return -1;
        }
    }

    private boolean mayRetry(Throwable cause, SentBody sent) {
        if (!(cause instanceof ClientException) || attempts >= proxy.retry.maxAttempts()) {
            return false;
        }
        boolean bodyIntact = sent == null || !sent.subscribed();
        boolean safe = ((ClientException) cause).requestSent()
                ? cause instanceof ConnectionClosedException && request.method().isIdempotent() && bodyIntact
                : bodyIntact;
        return safe && proxy.budget.tryWithdraw();
    }

    private boolean mayRetryStatus(SentBody sent) {
        return attempts < proxy.retry.maxAttempts()
                && request.method().isIdempotent()
                && (sent == null || !sent.subscribed())
                && proxy.budget.tryWithdraw();
    }

    private void retryLater() {
        long delay = backoffNanos();
        if (delay == 0) {
            attempt();
        } else {
            ctx.eventLoop().schedule(this::attempt, delay, TimeUnit.NANOSECONDS);
        }
    }

    /** Full jitter: a random wait up to base times two to the retry number, capped. */
    private long backoffNanos() {
        long base = proxy.retry.backoff().toNanos();
        if (base == 0) {
            return 0;
        }
        long ceiling = Math.min(proxy.retry.maxBackoff().toNanos(), base << Math.min(attempts - 1, 20));
        return ThreadLocalRandom.current().nextLong(ceiling + 1);
    }

    private void cancel() {
        if (result.isDone() || cancelled) {
            return;
        }
        cancelled = true;
        group.exit();
        result.cancel(false);
        CompletableFuture<HttpResponse> call = inFlight;
        if (call != null) {
            call.cancel(false);
        }
    }

    private void fail(HttpStatusException failure) {
        group.exit();
        result.completeExceptionally(failure);
    }

    /** Drops a response nobody will read; the client closes its connection. */
    private static void discard(HttpResponse response) {
        response.body().subscribe(new Flow.Subscriber<HttpData>() {
            @Override
            public void onSubscribe(Flow.Subscription subscription) {
                subscription.cancel();
            }

            @Override
            public void onNext(HttpData item) {}

            @Override
            public void onError(Throwable failure) {}

            @Override
            public void onComplete() {}
        });
    }

    /** Recorded by a breaker for an upstream answer that counts as a failure (502, 503, 504). */
    private static final class StatusFailure extends RuntimeException {
        private static final long serialVersionUID = 1L;

        StatusFailure() {
            super("the upstream answered with a failure status");
        }

        @Override
        public synchronized Throwable fillInStackTrace() {
            return this;
        }
    }
}
