package io.parry.server.internal;

import io.netty.util.concurrent.EventExecutor;
import io.parry.http.HttpMethod;
import io.parry.http.HttpRequest;
import io.parry.http.HttpResponse;
import io.parry.http.HttpStatus;
import io.parry.http.HttpStatusException;
import io.parry.http.spi.AggregatingSubscriber;
import io.parry.http.spi.FixedBody;
import io.parry.http.tracing.TraceContext;
import io.parry.http.tracing.TracePropagation;
import io.parry.server.EndedBy;
import io.parry.server.Rejection;
import io.parry.server.RequestContext;
import io.parry.server.RequestLog;
import io.parry.server.RequestLogBuilder;
import io.parry.server.RequestSpan;
import io.parry.server.RequestTracer;
import io.parry.server.TlsInfo;
import io.parry.transport.spi.BodyFlow;
import io.parry.transport.spi.ConnectionTakeover;
import io.parry.transport.spi.EventLoopScheduler;
import io.parry.transport.spi.InboundBody;
import io.parry.transport.spi.TaskWrapper;
import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.net.InetSocketAddress;
import java.util.Optional;
import java.util.concurrent.Callable;
import java.util.concurrent.CancellationException;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.ScheduledExecutorService;
import java.util.function.BiConsumer;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * One request and its response, whatever framing carries them; also the request's {@link
 * RequestContext} and the builder of its request log.
 *
 * <p>The exchange owns the request's life: its {@link ExchangeState}, changed here alone and only
 * along the edges that state allows; the handler's dispatch and its answer (a failure becomes a
 * problem response, an answer that comes too late is released); the body limit; the request
 * deadline; {@link #clientGone()}; the trace and the request log. The framing ({@link
 * ExchangeFraming}, an {@link Http1Connection} today, an HTTP/2 stream later) owns the bytes: it
 * makes the exchange from a head it accepts, feeds it the body, writes its response when its turn
 * comes and says so as it goes ({@link #startWriting}, {@link #lastHandedOver}, {@link #end}, {@link
 * #abandon}). Whatever is particular to one protocol (HTTP/1.x keep-alive, 100 Continue, pipelining)
 * stays in the framing.
 *
 * <p>Touched only on the framing's event loop, but for the trace, which any thread may be first to
 * ask for, and the log's facts, which the request's work may set on a worker thread before its
 * response stage completes (read on the loop after that).
 */
final class Exchange
        implements RequestContext,
                RequestLogBuilder,
                TracedContext,
                BodyFlow,
                TaskWrapper,
                BiConsumer<HttpResponse, Throwable> {
    private static final Logger log = LoggerFactory.getLogger(Exchange.class);
    private static final VarHandle TRACE;

    static {
        try {
            TRACE = MethodHandles.lookup().findVarHandle(Exchange.class, "trace", TraceContext.class);
        } catch (ReflectiveOperationException e) {
            throw new ExceptionInInitializerError(e);
        }
    }

    private final ExchangeFraming framing;
    final int sequence;
    /** The protocol and version the request came in, as {@link RequestContext#protocol()} tells it. */
    private final String protocol;

    final long startNanos;
    private HttpRequest request;
    /** The request body as it arrives, or {@code null} when the request has none. */
    private InboundBody body;

    /** Request body bytes received. */
    private long received;

    private HttpResponse response;
    /** Response body bytes handed to the framing; written by the framing alone. */
    private long sent;
    /** For a request refused before it was built: the method and target of its head, when it was read. */
    private HttpMethod refusedMethod;

    private String refusedTarget;
    String route;
    String upstream;
    long upstreamNanos = -1;
    /** The query the log records instead of the request's, after a filter removed a secret from it. */
    String loggedQuery;

    private ExchangeState state = ExchangeState.RECEIVING;
    /** Made when someone asks, or completed at once when the client is gone before anyone did. */
    private CompletableFuture<Void> clientGone;
    /** Which side ended the exchange, when the handling code or the framing knows; written through {@link #endedBy}. */
    EndedBy endedBy;

    private String requestId;
    /** Set once, by whichever thread asks first; read plainly, as a TraceContext is immutable. */
    private TraceContext trace;
    /** The span a tracer started for {@link #trace}, ended with the exchange; {@code null} without one. */
    private volatile RequestSpan span;

    Exchange(ExchangeFraming framing, int sequence, String protocol, long startNanos) {
        this.framing = framing;
        this.sequence = sequence;
        this.protocol = protocol;
        this.startNanos = startNanos;
    }

    ExchangeState state() {
        return state;
    }

    /** The framing read a head it accepts, as this request with this body (or none). */
    void requestRead(HttpRequest request, InboundBody body) {
        if (state != ExchangeState.RECEIVING) {
            throw new IllegalStateException(this + ": request read in " + state);
        }
        this.request = request;
        this.body = body;
    }

    /** Keeps what the request log needs of a head that will not become a request. */
    void headRefused(HttpMethod method, String target) {
        refusedMethod = method;
        refusedTarget = target;
    }

    HttpMethod refusedMethod() {
        return refusedMethod;
    }

    String refusedTarget() {
        return refusedTarget;
    }

    /** The request's body as it arrives, or {@code null} when it has none. */
    InboundBody body() {
        return body;
    }

    /** The request the framing read, or {@code null} for a head that was refused. */
    HttpRequest requestOrNull() {
        return request;
    }

    /** The head was accepted: the handler gets the request. */
    void handling() {
        moveTo(ExchangeState.HANDLING);
    }

    /** Runs the server's handler; its answer is written when its turn comes. */
    void dispatch() {
        ServerRuntime runtime = framing.runtime();
        if (runtime.tracer != null && runtime.tracing) {
            // The tracer's span starts before the handler runs, even when nothing asks for the trace
            // (an MDC that answers ids lazily does not make it as the context becomes current).
            traceContext();
        }
        CompletionStage<HttpResponse> stage = CurrentContext.handle(runtime.handler, this, request);
        if (stage instanceof CompletableFuture<HttpResponse> done && done.isDone()) {
            answeredNow(done);
        } else {
            stage.whenComplete(this); // The exchange is the callback: no lambda per request.
        }
    }

    /** The handler's stage completed, on any thread. */
    @Override
    public void accept(HttpResponse response, Throwable failure) {
        EventExecutor loop = framing.executor();
        if (loop.inEventLoop()) {
            answered(response, failure);
        } else {
            loop.execute(() -> answered(response, failure));
        }
    }

    private void answeredNow(CompletableFuture<HttpResponse> done) {
        if (!done.isCompletedExceptionally()) {
            answered(done.getNow(null), null);
            return;
        }
        try {
            done.join();
        } catch (CompletionException | CancellationException failure) {
            answered(null, failure);
        }
    }

    /** Takes the handler's answer (a failure becomes a problem response) unless it came too late. */
    void answered(HttpResponse response, Throwable failure) {
        if (!awaitsResponse()) {
            release(response);
            return;
        }
        if (failure != null && !framing.isOpen()) {
            // The client left, and the handler failed on the body the close broke: no one can be
            // answered, and the failure is the client's, not a server error to log.
            log.debug("{} ended as its client left: {}", this, failure.toString());
            return;
        }
        if (failure == null && response == null) {
            failure = new NullPointerException("handler returned a null response");
        } else if (failure == null) {
            failure = refusedTakeover(response);
        }
        if (failure != null) {
            respond(ErrorResponses.forFailure(this, failure));
        } else {
            respond(response);
        }
        framing.responseReady(this);
    }

    /**
     * Why a response that switches protocols cannot be sent, or {@code null} when it can or does not
     * switch: a 101 carries a {@link ConnectionTakeover} and an {@code Upgrade} field (RFC 9110, section
     * 15.2.2) and answers a request that asked for an upgrade the framing can give. A refused takeover
     * is told so and released.
     */
    private Throwable refusedTakeover(HttpResponse response) {
        boolean switching = response.status().code() == 101;
        boolean takeover = response.body() instanceof ConnectionTakeover;
        if (!switching && !takeover) {
            return null;
        }
        String problem = null;
        if (!takeover) {
            problem = "a 101 response needs a ConnectionTakeover body";
        } else if (!switching) {
            problem = "a ConnectionTakeover body needs a 101 status, not "
                    + response.status().code();
        } else if (!response.headers().contains("upgrade")) {
            problem = "a 101 response needs an Upgrade field";
        } else if (!framing.canTakeOver(this)) {
            problem = "a 101 response answers only an HTTP/1.1 request without a body that asked for an upgrade";
        }
        if (problem == null) {
            return null;
        }
        IllegalStateException refused = new IllegalStateException(problem);
        if (takeover) {
            ((ConnectionTakeover) response.body()).abandoned(refused);
        } else {
            release(response);
        }
        return refused;
    }

    /**
     * Counts request body bytes as they arrive; false once they pass the body limit, which
     * applies however the framing delimits the body.
     */
    boolean bodyReceived(int bytes) {
        received += bytes;
        return received <= framing.runtime().limits.maxBodySize();
    }

    long bodyBytesReceived() {
        return received;
    }

    /** The framing has handed {@code total} response body bytes over so far. */
    void bodyBytesSent(long total) {
        sent = total;
    }

    long bodyBytesSent() {
        return sent;
    }

    /** Whether the handler has had the request's whole time (the request timeout) without answering. */
    boolean responseOverdue(long now) {
        long timeout = framing.runtime().requestNanos;
        return state == ExchangeState.HANDLING && timeout > 0 && now - startNanos >= timeout;
    }

    /**
     * The request timeout passed: the client gets 408 while its body is still arriving, else 503;
     * the body's reader fails, the handler's late answer is dropped and its work is told that
     * nobody waits for it. The framing stops reading first, as the rest of the body will not be read.
     */
    void timedOut() {
        boolean bodyArriving = bodyStillArriving();
        HttpStatus status = bodyArriving ? HttpStatus.REQUEST_TIMEOUT : HttpStatus.SERVICE_UNAVAILABLE;
        // Set first, so the handler's own answer to the failed body is dropped.
        respond(ErrorResponses.problem(
                this,
                status,
                bodyArriving ? "The request body did not arrive in time." : "The response was not ready in time."));
        if (bodyArriving) {
            endedBy = EndedBy.CLIENT; // Still sending its body: too slow.
            body.onFailure(new HttpStatusException(status));
        }
        clientLeft();
        framing.responseReady(this);
    }

    ServerRuntime runtime() {
        return framing.runtime();
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
        if (framing.runtime().logging) {
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
        if (framing.runtime().logging) {
            tellListeners(false, from.responseStarted());
        }
        clientLeft();
        discardBody();
        if (from == ExchangeState.RESPONDED) {
            release(response);
        }
    }

    /**
     * Drains and releases whatever of the request body is still to come; called when the response
     * was handed over, or the exchange abandoned.
     */
    void discardBody() {
        if (body != null) {
            body.discard();
        }
    }

    /** Whether the request is a HEAD request, whose response has a head alone. */
    boolean isHeadRequest() {
        return request != null && request.method() == HttpMethod.HEAD; // HttpMethod.of gives the one HEAD.
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
        if (response == null || response.body() instanceof FixedBody) {
            return;
        }
        if (response.body() instanceof ConnectionTakeover takeover) {
            takeover.abandoned(new IllegalStateException("the 101 response was not sent"));
        } else {
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
            requestId = framing.connectionId() + "-" + sequence;
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
        RequestTracer tracer = framing.runtime().tracer;
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
        return framing.runtime().tracing ? traceContext() : null;
    }

    /** Whether a trace was made for this request, by tracing or by someone asking; never makes one. */
    TraceContext traceIfMade() {
        return trace;
    }

    @Override
    public RequestLogBuilder log() {
        return framing.runtime().logging ? this : NoRequestLog.INSTANCE;
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
    public RequestLogBuilder endedBy(EndedBy side) {
        this.endedBy = side;
        return this;
    }

    @Override
    public RequestLogBuilder query(String query) {
        this.loggedQuery = query;
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
        framing.runtime().listeners.ended(log);
        RequestSpans.end(span, log);
    }

    @Override
    public InetSocketAddress remoteAddress() {
        return framing.remoteAddress();
    }

    @Override
    public InetSocketAddress localAddress() {
        return framing.localAddress();
    }

    @Override
    public Optional<TlsInfo> tls() {
        return Optional.ofNullable(framing.tls());
    }

    @Override
    public long receivedNanos() {
        return startNanos;
    }

    @Override
    public String protocol() {
        return protocol;
    }

    @Override
    public ScheduledExecutorService eventLoop() {
        return new EventLoopScheduler(framing.executor(), this);
    }

    @Override
    public CompletionStage<HttpResponse> runBlocking(Callable<HttpResponse> work) {
        CompletableFuture<HttpResponse> result = new CompletableFuture<>();
        try {
            framing.runtime().workers.execute(() -> CurrentContext.complete(this, work, result));
        } catch (RejectedExecutionException e) {
            framing.runtime().rejections.record(Rejection.WORKERS_BUSY, remoteAddress(), "worker executor full");
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
        framing.pauseRequestBody();
    }

    @Override
    public void resume() {
        framing.resumeRequestBody();
    }

    @Override
    public void demanded() {
        framing.bodyDemanded(this);
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
