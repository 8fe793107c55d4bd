package io.parry.proxy;

import io.parry.client.ClientException;
import io.parry.client.ClientProtocol;
import io.parry.client.ClientTimeoutException;
import io.parry.client.ClientTimeouts;
import io.parry.client.ConnectionClosedException;
import io.parry.client.Endpoint;
import io.parry.client.HttpClient;
import io.parry.client.LocalResourceException;
import io.parry.client.RequestWritten;
import io.parry.client.upstream.Upstream;
import io.parry.http.HttpBody;
import io.parry.http.HttpMethod;
import io.parry.http.HttpRequest;
import io.parry.http.HttpResponse;
import io.parry.http.spi.AggregatingSubscriber;
import io.parry.proxy.internal.DownstreamResponses;
import io.parry.proxy.internal.UpstreamRequests;
import io.parry.proxy.internal.WebSocketUpgrades;
import io.parry.server.EndedBy;
import io.parry.server.RequestContext;
import io.parry.transport.spi.UpgradedChannel;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.TimeUnit;
import java.util.function.Predicate;

/**
 * One proxied request: picks an endpoint, sends, and on a retryable failure tries again elsewhere.
 * Everything here runs on the downstream connection's event loop (the client completes on the loop
 * it was called from), so the fields need no synchronisation.
 *
 * <p>The call holds a place in its group's bulkhead from the start. It gives it back exactly once:
 * when it fails, when the client goes away first, or, once the response was handed over, when the
 * response body ends (see {@link ObservedBody}), however slowly the client reads it: the upstream
 * connection is in use until then. Like the adaptive limit's place below, it is not held while the
 * client is still sending its body. Each attempt likewise holds a breaker permission and
 * a count on its endpoint until its outcome is recorded; both are kept in fields, so a callback that
 * throws half-way (an observer, say) gives back what is still held.
 *
 * <p>A place under the group's adaptive limit is held from the start to the response head, the end
 * of the call or the client going away, but not while the client is still sending its body: a body
 * read before sending steps out of both places while it is read and must find them again after (503
 * when either is full); a streamed one steps out while the upstream waits for the rest and steps back
 * in, whatever the limit and the bulkhead, when it ended, the upstream having the request by then. So
 * the places count what the upstream owes an answer to, and clients sending slowly cannot fill them. Only the upstream's own answers feed the
 * limit: the time from the request's last byte written to the upstream connection to the response
 * head, and timeouts or overload statuses as drops. Whatever the client does (reads slowly, resets,
 * sends its body slowly, goes away) gives the place back without a sample, and a wait for a pooled
 * connection is no part of a sample.
 */
final class ProxyCall implements SentBody.Arrival, RequestWritten {
    private static final Throwable FAILED_STATUS = new StatusFailure();
    private static final Predicate<Endpoint> ANY = endpoint -> true;

    private final ProxyHandler proxy;
    /** The upstream call's timeouts, or {@code null} for those of the upstream's client. */
    private final ClientTimeouts timeouts;
    /** A gRPC call's deadline, or {@code null}: each attempt gets what is left of it. */
    private final GrpcDeadline deadline;

    private final RequestContext ctx;
    private HttpRequest request;
    private final GuardedUpstream group;
    private final Upstream upstream;
    private final boolean replayable;
    /** Whether the request is a WebSocket handshake the proxy forwards as one. */
    private final boolean webSocket;

    private final Result result = new Result();
    private final List<Endpoint> tried = new ArrayList<>(2);
    private List<Endpoint> refused;
    private CompletableFuture<HttpResponse> inFlight;
    private Throwable lastFailure;
    private int attempts;
    /** The breaker whose permission the attempt in flight holds until its outcome is recorded. */
    private EndpointBreaker heldPermission;
    /** The endpoint the attempt in flight is counted on until it is finished. */
    private Endpoint heldCount;
    /** Whether this call completed the result, handing the place over with a response. */
    private boolean settled;

    private boolean cancelled;
    /** Where the call stands under the group's adaptive limit. */
    private Place place;
    /** Where the call stands in the group's bulkhead. */
    private Place bulkheadPlace;
    /** When the attempt's request left in full, as the client told; 0 until it did. */
    private long writtenNanos;

    ProxyCall(
            ProxyHandler proxy,
            RequestContext ctx,
            HttpRequest request,
            GuardedUpstream group,
            boolean replayable,
            ClientTimeouts timeouts,
            GrpcDeadline deadline) {
        this.proxy = proxy;
        this.timeouts = timeouts;
        this.deadline = deadline;
        this.ctx = ctx;
        this.request = request;
        this.group = group;
        this.upstream = group.upstream();
        this.replayable = replayable;
        this.webSocket = proxy.webSocket.enabled() && WebSocketUpgrades.isHandshake(request);
        this.place = group.isAdaptive() ? Place.HELD : Place.NONE;
        this.bulkheadPlace = group.hasBulkhead() ? Place.HELD : Place.NONE;
    }

    /** Sends the request; the stage completes with the response head or a failure. */
    CompletableFuture<HttpResponse> start() {
        ctx.clientGone().thenRun(this::cancel);
        attempt();
        return result;
    }

    /** Reads the body in full first, up to {@code maxBytes}, so every attempt can send it again. */
    CompletableFuture<HttpResponse> startBuffered(int maxBytes) {
        ctx.clientGone().thenRun(this::cancel);
        stepOut();
        request.body().aggregate(maxBytes).whenComplete((data, failure) -> {
            if (failure != null) {
                // The body never reached an upstream: no upstream is to blame.
                boolean told = !settled && !cancelled;
                fail(ProxyFailures.ofClient(failure));
                if (told) {
                    endedByClient(ProxyFailures.bodyEnding(failure));
                }
            } else {
                request = request.withBody(HttpBody.of(data));
                if (readmitted()) {
                    attempt();
                }
            }
        });
        return result;
    }

    /** Tries the next endpoint; never throws, as it runs in callbacks and scheduled tasks. */
    private void attempt() {
        if (cancelled) {
            return;
        }
        if (result.isDone()) {
            cancel(); // Completed from outside: nobody waits for an answer any more.
            return;
        }
        try {
            sendToNextEndpoint();
        } catch (RuntimeException bug) {
            broken(bug, null);
        }
    }

    private void sendToNextEndpoint() {
        long left = deadline == null ? Long.MAX_VALUE : deadline.leftNanos();
        if (left <= 0) {
            ctx.log().endedBy(EndedBy.SERVER);
            fail(ProxyFailures.deadlinePassed(upstream.name()));
            return;
        }
        Endpoint endpoint = choose();
        if (endpoint == null) {
            if (attempts == 0) {
                group.observer().rejected(upstream.name(), ProxyObserver.Refusal.NO_ENDPOINT);
            }
            ctx.log().endedBy(EndedBy.UPSTREAM);
            fail(
                    lastFailure != null
                            ? ProxyFailures.of(lastFailure, upstream.name())
                            : ProxyFailures.noEndpoint(upstream.name()));
            return;
        }
        attempts++;
        SentBody sent = replayable
                ? null
                : new SentBody(request.body(), place == Place.NONE && bulkheadPlace == Place.NONE ? null : this);
        HttpRequest outbound;
        try {
            outbound = UpstreamRequests.prepare(
                    sent == null ? request : request.withBody(sent),
                    ctx,
                    endpoint,
                    proxy.path,
                    proxy.host,
                    proxy.requestHeaders,
                    proxy.forwarding);
        } catch (RuntimeException e) {
            // The route cannot make its upstream request (a template without its parameter): the
            // gateway's fault, not the endpoint's, so the breaker is not told.
            releasePermission();
            ctx.log().endedBy(EndedBy.SERVER);
            fail(e);
            return;
        }
        if (webSocket) {
            outbound = WebSocketUpgrades.upstreamHandshake(outbound);
        }
        ClientTimeouts callTimeouts = timeouts;
        if (deadline != null) {
            outbound = GrpcDeadline.forward(outbound, left);
            callTimeouts = GrpcDeadline.timeouts(timeouts, left);
        }
        upstream.callStarted(endpoint);
        heldCount = endpoint;
        long startNanos = System.nanoTime();
        writtenNanos = 0;
        CompletableFuture<HttpResponse> call = send(endpoint, outbound, callTimeouts);
        inFlight = call;
        call.whenComplete((response, failure) -> {
            try {
                answered(endpoint, startNanos, sent, response, failure);
            } catch (RuntimeException bug) {
                broken(bug, response);
            }
        });
    }

    /**
     * The client's stage; a client that throws instead of failing it fails the attempt all the same.
     * Under an adaptive limit the client tells when the request left, where the upstream's latency starts.
     */
    private CompletableFuture<HttpResponse> send(Endpoint endpoint, HttpRequest outbound, ClientTimeouts callTimeouts) {
        HttpClient client = group.client();
        try {
            if (place != Place.NONE) {
                ClientTimeouts timeouts =
                        callTimeouts == null ? client.options().timeouts() : callTimeouts;
                return client.send(endpoint, outbound, timeouts, this).toCompletableFuture();
            }
            return (callTimeouts == null
                            ? client.send(endpoint, outbound)
                            : client.send(endpoint, outbound, callTimeouts))
                    .toCompletableFuture();
        } catch (RuntimeException e) {
            return CompletableFuture.failedFuture(e);
        }
    }

    /**
     * The next endpoint: an untried one if possible, any healthy one otherwise; breakers permitting. The
     * permission taken is held in {@link #heldPermission}.
     */
    private Endpoint choose() {
        for (int i = 0; i <= upstream.endpoints().size(); i++) {
            Optional<Endpoint> candidate = tried.isEmpty() && refused == null
                    ? upstream.select(ANY) // The first pick, made without a predicate per request.
                    : upstream.select(e -> !tried.contains(e) && !isRefused(e));
            if (candidate.isEmpty() && !tried.isEmpty()) {
                candidate = upstream.select(e -> !isRefused(e));
            }
            if (candidate.isEmpty()) {
                return null;
            }
            Endpoint endpoint = candidate.get();
            EndpointBreaker breaker = group.endpointBreaker(endpoint);
            if (breaker == null || breaker.tryAcquirePermission()) {
                tried.add(endpoint);
                heldPermission = breaker;
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

    private void answered(Endpoint endpoint, long startNanos, SentBody sent, HttpResponse response, Throwable failure) {
        inFlight = null;
        if (failure == null && response == null) {
            failure = new IllegalStateException("the client completed without a response");
        }
        long now = System.nanoTime();
        long elapsed = now - startNanos;
        if (cancelled) {
            releasePermission();
            abandonCall();
            if (response != null) {
                discard(response);
            }
            return;
        }
        Throwable cause = failure == null ? null : ProxyFailures.unwrap(failure);
        ProxyObserver.ClientEnding ending = cause == null ? null : ProxyFailures.clientEnding(cause);
        if (ending != null) {
            // The client broke the exchange (its request body, say): nothing is known about the upstream,
            // so the breaker and the endpoint hear no outcome, and the request is not tried again.
            releasePermission();
            abandonCall();
            ctx.log().upstream(group.label(endpoint)).addUpstreamNanos(elapsed);
            endedByClient(ending);
            fail(ProxyFailures.ofClient(cause));
            return;
        }
        if (cause instanceof LocalResourceException) {
            // This process is out of sockets (clients holding every file descriptor can do that): the
            // upstream is not to blame, and another endpoint would fare no better.
            releasePermission();
            abandonCall();
            ctx.log().upstream(group.label(endpoint)).endedBy(EndedBy.SERVER);
            group.outOfLocalResources(endpoint, cause);
            fail(ProxyFailures.of(cause, upstream.name()));
            return;
        }
        recordAttempt(endpoint, response, cause, elapsed);
        if (cause != null) {
            if (cause instanceof ClientTimeoutException) {
                group.limitDrop(now);
            }
            recordOutcome(elapsed, cause);
            finishCall(false);
            lastFailure = cause;
            if (mayRetry(cause, sent)) {
                group.observer()
                        .retried(upstream.name(), endpoint, cause.getClass().getSimpleName());
                retryLater();
            } else {
                ctx.log().endedBy(EndedBy.UPSTREAM);
                fail(ProxyFailures.of(cause, upstream.name()));
            }
            return;
        }
        if (webSocket && response.body() instanceof UpgradedChannel) {
            switched(endpoint, response, elapsed);
            return;
        }
        feedLimit(response.status().code(), startNanos, sent, now);
        boolean failedStatus = proxy.retry.retriesStatus(response.status().code());
        if (failedStatus) {
            recordOutcome(elapsed, FAILED_STATUS);
            finishCall(false);
            if (mayRetryStatus(sent)) {
                discard(response);
                lastFailure = null;
                group.observer()
                        .retried(
                                upstream.name(),
                                endpoint,
                                Integer.toString(response.status().code()));
                retryLater();
                return;
            }
        } else {
            recordOutcome(elapsed, null);
        }
        HttpResponse passed = downstream(response, endpoint, !failedStatus);
        leaveLimit();
        settled = true;
        if (!result.deliver(passed)) {
            // Completed from outside meanwhile: nobody will write it, and ending its body gives the place back.
            discard(passed);
        }
    }

    /**
     * The upstream accepted the WebSocket handshake: the attempt succeeded and its call is finished;
     * the session holds no bulkhead place, and the client gets its {@code 101} with the relay as body.
     */
    private void switched(Endpoint endpoint, HttpResponse response, long elapsed) {
        recordOutcome(elapsed, null);
        finishCall(true);
        UpgradedChannel upgraded = (UpgradedChannel) response.body();
        ProxiedUpgrade relay = new ProxiedUpgrade(upgraded, proxy.webSocket, group, endpoint, proxy.name);
        HttpResponse prepared = DownstreamResponses.prepare(response, proxy.responseHeaders, proxy.forwarding);
        settled = true;
        exitBulkhead();
        leaveLimit();
        if (!result.deliver(WebSocketUpgrades.downstreamSwitch(prepared, relay))) {
            upgraded.close();
        }
    }

    /**
     * Tells the adaptive limit what the upstream's answer says about its load: 429, 503 and 504 are
     * an overloaded upstream's answers (RFC 9110, sections 15.6.4 and 15.6.5; RFC 6585, section 4);
     * any other head is a latency sample from the request's last byte written, so neither a wait for
     * a pooled connection (held by slow readers, say) nor the client's pace with its body counts as the
     * upstream's. A client that does not tell when it wrote the request is timed from the call (or the
     * body's end); a head that came before the body ended is no sample.
     */
    private void feedLimit(int status, long startNanos, SentBody sent, long now) {
        if (place == Place.NONE) {
            return;
        }
        if (status == 429 || status == 503 || status == 504) {
            group.limitDrop(now);
        } else if (sent != null && !sent.ended()) {
            return;
        } else if (writtenNanos != 0) {
            group.limitSample(now - writtenNanos, now);
        } else if (sent == null) {
            group.limitSample(now - startNanos, now);
        } else {
            group.limitSample(now - Math.max(startNanos, sent.endNanos()), now);
        }
    }

    @Override
    public void written(long nanoTime) {
        writtenNanos = nanoTime;
    }

    /** Gives back the call's place under the adaptive limit, once. */
    private void leaveLimit() {
        if (place == Place.HELD) {
            group.leaveLimit();
        }
        place = Place.NONE;
    }

    /** Gives back the call's place in the bulkhead, once. */
    private void exitBulkhead() {
        if (bulkheadPlace == Place.HELD) {
            group.exit();
        }
        bulkheadPlace = Place.NONE;
    }

    /** Gives the places back while the client sends the body, keeping the call's admission. */
    private void stepOut() {
        if (place == Place.HELD) {
            group.leaveLimit();
            place = Place.AWAY;
        }
        if (bulkheadPlace == Place.HELD) {
            group.exit();
            bulkheadPlace = Place.AWAY;
        }
    }

    /**
     * Takes the places again for a body read in full before sending, in the order of arrival; nothing
     * has reached the upstream yet, so a limit reached or a bulkhead filled meanwhile refuses the
     * request as it would have on arrival.
     */
    private boolean readmitted() {
        if (place == Place.AWAY && !group.tryAdmit()) {
            refuse(group.shedAnswer(GrpcCalls.isGrpc(request)).join(), null);
            return false;
        }
        if (place == Place.AWAY) {
            place = Place.HELD;
        }
        if (bulkheadPlace == Place.AWAY && !group.tryEnter()) {
            refuse(null, ProxyFailures.busy(upstream.name()));
            return false;
        }
        if (bulkheadPlace == Place.AWAY) {
            bulkheadPlace = Place.HELD;
        }
        return true; // Also for a call that ended meanwhile, which attempt() sees.
    }

    /** Ends a call refused on readmission with {@code answer}, or with {@code failure} when it has none. */
    private void refuse(HttpResponse answer, Throwable failure) {
        leaveLimit();
        bulkheadPlace = Place.NONE;
        settled = true;
        if (answer != null) {
            result.deliver(answer);
        } else {
            result.failWith(failure);
        }
    }

    @Override
    public void bodyPending() {
        stepOut();
    }

    @Override
    public void bodyEnded() {
        if (place == Place.AWAY) {
            group.reenterLimit();
            place = Place.HELD;
        }
        if (bulkheadPlace == Place.AWAY) {
            group.reenter();
            bulkheadPlace = Place.HELD;
        }
    }

    /** Tells the request log and the observer how an attempt ended. */
    private void recordAttempt(Endpoint endpoint, HttpResponse response, Throwable cause, long elapsed) {
        ctx.log().upstream(group.label(endpoint)).addUpstreamNanos(elapsed);
        group.observer()
                .attemptEnded(
                        upstream.name(),
                        endpoint,
                        cause == null ? response.status().code() : 0,
                        cause,
                        elapsed);
    }

    /** Tells the request log and the observer that the client ended the exchange. */
    private void endedByClient(ProxyObserver.ClientEnding ending) {
        ctx.log().endedBy(EndedBy.CLIENT);
        group.observer().clientEnded(upstream.name(), ending);
    }

    /**
     * The protocol the response came from the upstream with, for {@code Via} (RFC 9110, section 7.6.3): as the
     * client received it, so an H2 client whose TLS endpoint chose HTTP/1.1 by ALPN names HTTP/1.1; else, for a
     * response a client filter built, the protocol its client is configured to speak.
     */
    private String upstreamProtocol(HttpResponse response) {
        String received = response.protocol();
        if (!received.isEmpty()) {
            return received;
        }
        return group.client().options().protocol() == ClientProtocol.HTTP1 ? "HTTP/1.1" : "HTTP/2";
    }

    private HttpResponse downstream(HttpResponse response, Endpoint endpoint, boolean countsForEndpoint) {
        HttpBody body = response.body();
        long length = request.method().equals(HttpMethod.HEAD) ? headContentLength(response) : body.contentLength();
        ObservedBody observed = new ObservedBody(body, length, failure -> {
            try {
                bodyEnded(endpoint, countsForEndpoint, failure);
            } finally {
                exitBulkhead();
            }
        });
        HttpResponse passed = DownstreamResponses.prepare(
                response.withBody(observed), upstreamProtocol(response), proxy.responseHeaders, proxy.forwarding);
        heldCount = null; // From here the body's end finishes the call.
        return passed;
    }

    /**
     * The response body ended: the endpoint hears a success, or a failure the upstream caused; a body
     * the client stopped reading, or whose request body the client broke, ends the call without an
     * outcome (the breaker had its outcome with the head).
     */
    private void bodyEnded(Endpoint endpoint, boolean countsForEndpoint, Throwable failure) {
        ProxyObserver.ClientEnding ending = failure == null ? null : ProxyFailures.clientEnding(failure);
        if (countsForEndpoint) {
            if (ending != null) {
                upstream.callAbandoned(endpoint);
            } else {
                upstream.callFinished(endpoint, failure == null);
            }
        }
        if (ending != null) {
            endedByClient(ending);
        } else if (failure != null) {
            ctx.log().endedBy(EndedBy.UPSTREAM);
        }
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

    /** Full jitter: a random wait up to the policy's ceiling for this retry. */
    private long backoffNanos() {
        long ceiling = proxy.retry.backoffCeilingNanos(attempts);
        return ceiling == 0 ? 0 : ThreadLocalRandom.current().nextLong(ceiling + 1);
    }

    private void cancel() {
        if (settled || cancelled) {
            return;
        }
        cancelled = true;
        exitBulkhead();
        leaveLimit();
        result.abandon();
        CompletableFuture<HttpResponse> call = inFlight;
        if (call != null) {
            call.cancel(false);
        }
        group.observer().clientEnded(upstream.name(), ProxyObserver.ClientEnding.ABANDONED);
    }

    private void fail(Throwable failure) {
        leaveLimit();
        if (settled || cancelled) {
            return;
        }
        settled = true;
        exitBulkhead();
        result.failWith(failure);
    }

    /**
     * A callback threw: the request fails rather than hang with its place taken, and a response not
     * handed over yet is dropped so its connection is not held.
     */
    private void broken(RuntimeException bug, HttpResponse response) {
        releasePermission();
        ctx.log().endedBy(EndedBy.SERVER);
        if (heldCount != null) {
            finishCall(false);
        }
        if (!settled && response != null) {
            discard(response);
        }
        fail(bug);
    }

    /** Records the attempt's outcome on its endpoint's breaker: a success when {@code failure} is null. */
    private void recordOutcome(long elapsedNanos, Throwable failure) {
        EndpointBreaker breaker = heldPermission;
        heldPermission = null;
        if (breaker == null) {
            return;
        }
        if (failure == null) {
            breaker.onSuccess(elapsedNanos);
        } else {
            breaker.onError(elapsedNanos, failure);
        }
    }

    /** Gives the attempt's breaker permission back without an outcome. */
    private void releasePermission() {
        EndpointBreaker breaker = heldPermission;
        heldPermission = null;
        if (breaker != null) {
            breaker.releasePermission();
        }
    }

    private void abandonCall() {
        Endpoint endpoint = heldCount;
        heldCount = null;
        upstream.callAbandoned(endpoint);
    }

    private void finishCall(boolean success) {
        Endpoint endpoint = heldCount;
        heldCount = null;
        upstream.callFinished(endpoint, success);
    }

    /** Drops a response nobody will read; the client closes its connection. */
    private static void discard(HttpResponse response) {
        response.body().subscribe(AggregatingSubscriber.cancelling());
    }

    /**
     * The call's stage. Completing it from outside, as a filter's timeout does, abandons the call as
     * the client going away does: the upstream call is cancelled and the place given back at once.
     */
    private final class Result extends CompletableFuture<HttpResponse> {
        boolean deliver(HttpResponse response) {
            return super.complete(response);
        }

        void failWith(Throwable failure) {
            super.completeExceptionally(failure);
        }

        void abandon() {
            super.cancel(false);
        }

        @Override
        public boolean complete(HttpResponse value) {
            return abandonedIf(super.complete(value));
        }

        @Override
        public boolean completeExceptionally(Throwable failure) {
            return abandonedIf(super.completeExceptionally(failure));
        }

        @Override
        public boolean cancel(boolean mayInterruptIfRunning) {
            return abandonedIf(super.cancel(mayInterruptIfRunning));
        }

        private boolean abandonedIf(boolean completed) {
            if (completed) {
                try {
                    // Any thread may complete it, but the call's state belongs to the event loop.
                    ctx.eventLoop().execute(ProxyCall.this::cancel);
                } catch (RejectedExecutionException e) {
                    // The loop is shutting down: the connection and the upstream call end with it.
                }
            }
            return completed;
        }
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

    /** Where a call stands under its group's adaptive limit or in its bulkhead. */
    private enum Place {
        /** No place: the group has no such limit, or the call gave its place back for good. */
        NONE,
        /** A place counted against the limit. */
        HELD,
        /** Admitted, but not counted while the client is still sending the body. */
        AWAY
    }
}
