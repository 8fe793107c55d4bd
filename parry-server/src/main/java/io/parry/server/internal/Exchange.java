package io.parry.server.internal;

import io.parry.http.HttpMethod;
import io.parry.http.HttpRequest;
import io.parry.http.HttpResponse;
import io.parry.http.HttpStatus;
import io.parry.http.HttpStatusException;
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
    /** The handler asked for the body of a request that expects 100 Continue. */
    boolean continueDemanded;

    boolean continueSent;
    long received;
    HttpResponse response;
    CompletableFuture<Void> clientGone;
    boolean abandoned;
    boolean writing;
    boolean responseStarted;
    boolean closeAfter;
    boolean finished;
    /** Response body bytes handed to the channel. */
    long sent;
    /** For a request refused before it was built: the method and target of its head, when it was read. */
    HttpMethod refusedMethod;

    String refusedTarget;
    String route;
    String upstream;
    long upstreamNanos = -1;
    /** Whether the listeners were told about this exchange. */
    boolean ended;

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

    /**
     * The exchange is over: tells the server's listeners once, if there are any. Called on the event
     * loop when the last response byte was written or the connection closed first.
     */
    void end(boolean completed) {
        if (ended) {
            return;
        }
        ended = true;
        ServerRuntime runtime = connection.runtime();
        if (runtime.logging) {
            RequestLog log = ExchangeLog.of(this, completed, System.nanoTime());
            runtime.listeners.ended(log);
            RequestSpans.end(span, log);
        }
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
            if (abandoned) {
                clientGone.complete(null);
            }
        }
        return clientGone;
    }

    /** The connection closed before the response was sent: tells whoever asked, in the request's context. */
    void clientLeft() {
        abandoned = true;
        if (clientGone != null) {
            CurrentContext.run(this, () -> clientGone.complete(null));
        }
    }

    @Override
    public String toString() {
        return request == null ? "Exchange(" + sequence + ")" : request.method() + " " + request.path();
    }
}
