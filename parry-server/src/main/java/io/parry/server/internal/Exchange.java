package io.parry.server.internal;

import io.parry.http.HttpMethod;
import io.parry.http.HttpRequest;
import io.parry.http.HttpResponse;
import io.parry.http.HttpStatus;
import io.parry.http.HttpStatusException;
import io.parry.http.internal.AggregatingSubscriber;
import io.parry.http.internal.FixedBody;
import io.parry.http.tracing.TraceContext;
import io.parry.http.tracing.TracePropagation;
import io.parry.server.Rejection;
import io.parry.server.RequestContext;
import io.parry.server.RequestLog;
import io.parry.server.RequestLogBuilder;
import io.parry.server.RequestSpan;
import io.parry.server.RequestTracer;
import io.parry.transport.internal.BodyFlow;
import io.parry.transport.internal.EventLoopScheduler;
import io.parry.transport.internal.InboundBody;
import io.parry.transport.internal.TaskWrapper;
import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.net.InetSocketAddress;
import java.util.concurrent.Callable;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.ScheduledExecutorService;

/**
 * One request and its response on a connection; also the request's {@link RequestContext} and the
 * builder of its request log. Its fields are touched only on the connection's event loop, but for
 * the trace, which any thread may be first to ask for, and the log's facts, which the request's work
 * may set on a worker thread before its response stage completes (read on the loop after that).
 */
final class Exchange implements RequestContext, RequestLogBuilder, TracedContext, BodyFlow, TaskWrapper {
    private static final VarHandle TRACE;

    static {
        try {
            TRACE = MethodHandles.lookup().findVarHandle(Exchange.class, "trace", TraceContext.class);
        } catch (ReflectiveOperationException e) {
            throw new ExceptionInInitializerError(e);
        }
    }

    final Http1Connection connection;
    final int sequence;
    final boolean http10;
    final long startNanos;
    HttpRequest request;
    InboundBody body;
    boolean keepAlive;
    boolean head;
    boolean expectContinue;
    boolean continueSent;
    long received;
    HttpResponse response;
    boolean closeAfter;
    /** Response body bytes handed to the channel. */
    long sent;
    /** For a request refused before it was built: the method and target of its head, when it was read. */
    HttpMethod refusedMethod;

    String refusedTarget;
    String route;
    String upstream;
    long upstreamNanos = -1;

    private ExchangeState state = ExchangeState.RECEIVING;
    /** Made when someone asks, or completed at once when the client is gone before anyone did. */
    private CompletableFuture<Void> clientGone;

    private String requestId;
    /** Set once, by whichever thread asks first; read plainly, as a TraceContext is immutable. */
    private TraceContext trace;
    /** The span a tracer started for {@link #trace}, ended with the exchange; {@code null} without one. */
    private volatile RequestSpan span;

    Exchange(Http1Connection connection, int sequence, boolean http10, long startNanos) {
        this.connection = connection;
        this.sequence = sequence;
        this.http10 = http10;
        this.startNanos = startNanos;
    }

    ExchangeState state() {
        return state;
    }

    /** The head was accepted: the handler gets the request. */
    void handling() {
        moveTo(ExchangeState.HANDLING);
    }

    /** Whether the exchange still waits for its response: a handler's answer now is taken. */
    boolean awaitsResponse() {
        return state == ExchangeState.HANDLING;
    }

    /**
     * Sets the response, unless there is one already or the exchange is over; a response not taken
     * is released. Returns whether it was taken.
     */
    boolean respond(HttpResponse response) {
        if (state != ExchangeState.HANDLING && state != ExchangeState.RECEIVING) {
            release(response);
            return false;
        }
        this.response = response;
        moveTo(ExchangeState.RESPONDED);
        return true;
    }

    /** Whether the response is set and waits for the framing to write it. */
    boolean responseReady() {
        return state == ExchangeState.RESPONDED;
    }

    /** The framing begins writing the response: from now on its status is what the client sees. */
    HttpResponse startWriting() {
        moveTo(ExchangeState.WRITING);
        return response;
    }

    boolean responseStarted() {
        return state.responseStarted();
    }

    /**
     * The framing handed over the response's last message. Returns whether it must call {@link
     * #end} once that message left; without listeners the exchange is done now.
     */
    boolean lastHandedOver() {
        moveTo(ExchangeState.SENT);
        if (connection.runtime().logging) {
            return true;
        }
        moveTo(ExchangeState.DONE);
        return false;
    }

    /** The last message left, or failed to: tells the listeners. Called on the event loop. */
    void end(boolean completed) {
        moveTo(ExchangeState.DONE);
        tellListeners(completed, true);
    }

    /**
     * The connection closed before the response was sent: tells the listeners and whoever waits on
     * {@link #clientGone()}, and releases the request body and a response that will not be sent.
     */
    void abandon() {
        ExchangeState from = state;
        moveTo(ExchangeState.ABANDONED);
        if (connection.runtime().logging) {
            tellListeners(false, from.responseStarted());
        }
        clientLeft();
        if (body != null) {
            body.discard();
        }
        if (from == ExchangeState.RESPONDED) {
            release(response);
        }
    }

    /** The one place the state changes; an edge {@link ExchangeState} does not allow is a bug. */
    private void moveTo(ExchangeState next) {
        if (!state.canMoveTo(next)) {
            throw new IllegalStateException(this + ": " + state + " -> " + next);
        }
        state = next;
    }

    /** Releases what a response that will never be sent holds. */
    static void release(HttpResponse response) {
        if (response != null && !(response.body() instanceof FixedBody)) {
            response.body().subscribe(AggregatingSubscriber.cancelling());
        }
    }

    @Override
    public HttpRequest request() {
        if (request == null) {
            throw new IllegalStateException("the request was refused before it was read");
        }
        return request;
    }

    boolean bodyStillArriving() {
        return body != null && !body.isReceived();
    }

    @Override
    public String requestId() {
        if (requestId == null) {
            requestId = connection.id() + "-" + sequence;
        }
        return requestId;
    }

    @Override
    public TraceContext traceContext() {
        TraceContext current = trace;
        if (current != null) {
            return current;
        }
        TraceContext made =
                request != null ? TracePropagation.ofDefault().nextSpan(request.headers()) : TraceContext.newRoot(true);
        RequestTracer tracer = connection.runtime().tracer;
        RequestSpan started = tracer == null ? null : RequestSpans.start(tracer, this, request, made);
        if (started != null) {
            made = started.context();
        }
        TraceContext raced = (TraceContext) TRACE.compareAndExchange(this, null, made);
        if (raced != null) {
            return raced; // Another thread's span is the request's; this one is never ended.
        }
        span = started;
        return made;
    }

    @Override
    public TraceContext mdcTrace() {
        return connection.runtime().tracing ? traceContext() : null;
    }

    /** Whether a trace was made for this request, by tracing or by someone asking; never makes one. */
    TraceContext traceIfMade() {
        return trace;
    }

    @Override
    public RequestLogBuilder log() {
        return connection.runtime().logging ? this : NoRequestLog.INSTANCE;
    }

    @Override
    public RequestLogBuilder route(String pattern) {
        this.route = pattern;
        return this;
    }

    @Override
    public RequestLogBuilder upstream(String upstream) {
        this.upstream = upstream;
        return this;
    }

    @Override
    public RequestLogBuilder addUpstreamNanos(long nanos) {
        upstreamNanos = upstreamNanos < 0 ? nanos : upstreamNanos + nanos;
        return this;
    }

    private void tellListeners(boolean completed, boolean responseStarted) {
        RequestLog log =
                ExchangeLog.of(this, responseStarted ? response.status().code() : 0, completed, System.nanoTime());
        connection.runtime().listeners.ended(log);
        RequestSpans.end(span, log);
    }

    @Override
    public InetSocketAddress remoteAddress() {
        return connection.remoteAddress();
    }

    @Override
    public InetSocketAddress localAddress() {
        return connection.localAddress();
    }

    @Override
    public String protocol() {
        return http10 ? "HTTP/1.0" : "HTTP/1.1";
    }

    @Override
    public ScheduledExecutorService eventLoop() {
        return new EventLoopScheduler(connection.executor(), this);
    }

    @Override
    public CompletionStage<HttpResponse> runBlocking(Callable<HttpResponse> work) {
        CompletableFuture<HttpResponse> result = new CompletableFuture<>();
        try {
            connection.runtime().workers.execute(() -> CurrentContext.complete(this, work, result));
        } catch (RejectedExecutionException e) {
            connection.runtime().rejections.record(Rejection.WORKERS_BUSY, remoteAddress(), "worker executor full");
            result.completeExceptionally(
                    new HttpStatusException(HttpStatus.SERVICE_UNAVAILABLE, "The server is busy; try again later."));
        }
        return result;
    }

    @Override
    public Runnable wrap(Runnable task) {
        return () -> CurrentContext.run(this, task);
    }

    @Override
    public <V> Callable<V> wrap(Callable<V> task) {
        return () -> CurrentContext.call(this, task);
    }

    @Override
    public void pause() {
        connection.pauseReading(Http1Connection.PAUSED_BY_BODY);
    }

    @Override
    public void resume() {
        connection.resumeReading(Http1Connection.PAUSED_BY_BODY);
    }

    @Override
    public void demanded() {
        connection.bodyDemanded(this);
    }

    @Override
    public CompletionStage<Void> clientGone() {
        if (clientGone == null) {
            clientGone = new CompletableFuture<>();
        }
        return clientGone;
    }

    /** Nobody waits for the handler's answer any more: tells whoever asked, in the request's context. */
    void clientLeft() {
        CompletableFuture<Void> gone = clientGone;
        if (gone == null) {
            clientGone = CompletableFuture.completedFuture(null);
        } else {
            CurrentContext.run(this, () -> gone.complete(null));
        }
    }

    @Override
    public String toString() {
        return request == null ? "Exchange(" + sequence + ")" : request.method() + " " + request.path();
    }
}
