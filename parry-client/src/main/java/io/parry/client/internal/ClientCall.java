package io.parry.client.internal;

import io.parry.client.ClientException;
import io.parry.client.ClientTimeouts;
import io.parry.client.Endpoint;
import io.parry.client.RequestWritten;
import io.parry.http.HttpMethod;
import io.parry.http.HttpRequest;
import io.parry.http.HttpResponse;
import io.parry.http.spi.FixedBody;
import io.parry.transport.spi.BodyFlow;
import io.parry.transport.spi.CallerContext;
import java.util.concurrent.CompletableFuture;

/**
 * One call: the future of its response, handed to the caller, and the call's place in the pool and
 * on its connection. Every field is confined to the call's event loop. Cancelling the future, or
 * completing it from outside in any other way, aborts the call: it leaves the pool's queue, or
 * closes the connection it was using. As the response body's {@link BodyFlow} it pauses and resumes
 * reading from that connection.
 */
final class ClientCall extends CompletableFuture<HttpResponse> implements BodyFlow {
    static final int NEW = 0;
    static final int WAITING = 1;
    static final int ACTIVE = 2;
    static final int DONE = 3;

    final LoopPools loop;
    final String poolKey;
    final Endpoint endpoint;
    final HttpRequest request;
    final ClientTimeouts timeouts;
    final long responseHeadersNanos;
    final long bodyIdleNanos;
    /** When the whole call expires, or 0 for never. */
    final long callDeadline;
    /** The request context the call was made in, current again while the call completes; or {@code null}. */
    final CallerContext caller;
    /** Told when the request was written in full, or {@code null}. */
    private final RequestWritten written;

    int state = NEW;
    ConnectionPool pool;
    CallStream connection;
    /** Whether a connection is being opened on behalf of this call. */
    boolean ownsConnect;
    /** Whether any byte of the call may have reached the upstream: set when its first write starts. */
    boolean requestSent;
    /** Why the first attempt failed, once the call was sent again after its connection died unused. */
    ClientException retriedAfter;

    ClientCall(
            LoopPools loop,
            String poolKey,
            Endpoint endpoint,
            HttpRequest request,
            ClientTimeouts timeouts,
            CallerContext caller,
            RequestWritten written) {
        this.loop = loop;
        this.caller = caller;
        this.written = written;
        this.poolKey = poolKey;
        this.endpoint = endpoint;
        this.request = request;
        this.timeouts = timeouts;
        this.responseHeadersNanos = Durations.nanos(timeouts.responseHeaders());
        this.bodyIdleNanos = Durations.nanos(timeouts.bodyIdle());
        long call = Durations.nanos(timeouts.call());
        this.callDeadline = call == 0 ? 0 : nonZero(System.nanoTime() + call);
    }

    /**
     * The request was written in full: tells the caller if it asked, and returns the deadline of the
     * response head, 0 for none (no timeout, or the head came already).
     */
    long requestWritten(boolean headReceived) {
        boolean timed = !headReceived && responseHeadersNanos > 0;
        if (written == null && !timed) {
            return 0;
        }
        long now = System.nanoTime();
        if (written != null) {
            written.written(now);
        }
        return timed ? nonZero(now + responseHeadersNanos) : 0;
    }

    boolean isHead() {
        return request.method().equals(HttpMethod.HEAD);
    }

    /** Whether the call may be sent again: once, idempotent, with a body that can be read again. */
    boolean mayRetry() {
        return retriedAfter == null
                && !isDone()
                && request.method().isIdempotent()
                && request.body() instanceof FixedBody;
    }

    /**
     * Whether a call the upstream did not process (a refused stream, or one above a GOAWAY's last
     * stream id) may be sent again: whatever its method (RFC 9113, section 8.7), once, with a body
     * that can be read again.
     */
    boolean mayResendUnprocessed() {
        return retriedAfter == null && !isDone() && request.body() instanceof FixedBody;
    }

    boolean isWaitingIn(ConnectionPool pool) {
        return state == WAITING && this.pool == pool;
    }

    boolean callExpired(long now) {
        return callDeadline != 0 && now - callDeadline >= 0;
    }

    /** Completes the call with its response; false when the caller gave up on it already. */
    boolean deliver(HttpResponse response) {
        Object previous = enterCaller();
        try {
            return super.complete(response);
        } finally {
            exitCaller(previous);
        }
    }

    /**
     * Fails the call before its response arrived. When a retry fails before sending anything, the
     * caller sees the first attempt's failure instead, since that one may have reached the upstream.
     */
    void fail(Throwable cause) {
        state = DONE;
        connection = null;
        if (retriedAfter != null && cause instanceof ClientException && !((ClientException) cause).requestSent()) {
            retriedAfter.addSuppressed(cause);
            cause = retriedAfter;
        }
        Object previous = enterCaller();
        try {
            super.completeExceptionally(cause);
        } finally {
            exitCaller(previous);
        }
    }

    /**
     * Makes the caller's context current, so the stages the caller chained on this future run in it
     * and not in whatever the connection's loop was doing.
     */
    private Object enterCaller() {
        return caller == null ? null : caller.enter();
    }

    private void exitCaller(Object previous) {
        if (caller != null) {
            caller.exit(previous);
        }
    }

    @Override
    public boolean cancel(boolean mayInterruptIfRunning) {
        boolean cancelled = super.cancel(mayInterruptIfRunning);
        if (cancelled) {
            onLoop(this::abandoned);
        }
        return cancelled;
    }

    @Override
    public boolean completeExceptionally(Throwable cause) {
        boolean completed = super.completeExceptionally(cause);
        if (completed) {
            onLoop(this::abandoned);
        }
        return completed;
    }

    @Override
    public boolean complete(HttpResponse value) {
        boolean completed = super.complete(value);
        if (completed) {
            onLoop(this::abandoned);
        }
        return completed;
    }

    /** The caller completed the future itself (usually by cancelling it): nobody wants the response. */
    private void abandoned() {
        if (state == WAITING) {
            state = DONE;
            pool.cancelWaiter(this);
        } else if (state == ACTIVE && connection != null) {
            connection.abandon(this);
        }
    }

    /** The caller cancelled the response body's subscription. */
    void bodyCancelled() {
        onLoop(() -> {
            if (state == ACTIVE && connection != null) {
                connection.abandon(this);
            }
        });
    }

    @Override
    public void pause() {
        if (connection != null) {
            connection.pauseReading(this);
        }
    }

    @Override
    public void resume() {
        if (connection != null) {
            connection.resumeReading(this);
        }
    }

    @Override
    public void demanded() {
        // Reading is driven by the socket and paused only past the body's high watermark.
    }

    private void onLoop(Runnable task) {
        if (loop.loop.inEventLoop()) {
            task.run();
        } else {
            loop.execute(task);
        }
    }

    private static long nonZero(long deadline) {
        return deadline == 0 ? 1 : deadline;
    }

    @Override
    public String toString() {
        return request + " to " + endpoint;
    }
}
