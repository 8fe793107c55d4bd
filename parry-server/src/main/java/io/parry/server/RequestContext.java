package io.parry.server;

import io.parry.http.HttpRequest;
import io.parry.http.HttpResponse;
import io.parry.http.tracing.TraceContext;
import io.parry.server.internal.CurrentContext;
import io.parry.server.internal.NoRequestLog;
import java.net.InetSocketAddress;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.Callable;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.ScheduledExecutorService;

/**
 * Facts about one request that are not in the request itself: where it came from, its id, its trace,
 * the event loop it runs on. The context is current ({@link #current()}) while Parry runs the
 * request's handler, its blocking work, tasks scheduled on {@link #eventLoop()}, and the stages Parry
 * completes for it; unless {@link ServerOptions.Builder#tracing(boolean) tracing} is off, the SLF4J
 * MDC then holds its {@code traceId}, {@code spanId} and {@code requestId}.
 */
public interface RequestContext {

    /** The context of the request this thread is working for, if any. */
    static Optional<RequestContext> current() {
        return Optional.ofNullable(CurrentContext.get());
    }

    /**
     * The request as the server received it, before filters changed it: for code that is handed only the
     * context, such as typed JSON handlers that need the {@code Host} to build a URL.
     *
     * @throws IllegalStateException for a context made outside a server that carries no request
     */
    default HttpRequest request() {
        throw new IllegalStateException("this context carries no request");
    }

    /** An id for this request, unique within the process, for logs and error responses. */
    String requestId();

    /**
     * The trace this request is part of, with the server's span for it: the trace that arrived in the
     * request's {@code traceparent} or B3 fields with a new span id whose parent is the caller's span,
     * or a new sampled trace when none arrived or the fields were malformed. The same value on every
     * call and thread; a client passes it on with {@code traceContext().child()}.
     *
     * <p>This default, for a context made outside a server, returns a new root on each call.
     */
    default TraceContext traceContext() {
        return TraceContext.newRoot(true);
    }

    /** The client's address (the peer of the TCP connection). */
    InetSocketAddress remoteAddress();

    /** The server's address the connection was accepted on. */
    InetSocketAddress localAddress();

    /**
     * The path parameters a router matched, for example {@code id} in {@code /todos/{id}}; empty when
     * no router took part.
     */
    default Map<String, String> pathParams() {
        return Map.of();
    }

    /**
     * Completes when nobody will read this request's response: the connection closed before it was
     * sent, or the server answered the request itself after its request timeout. Work for it can stop,
     * such as a proxied upstream call. It completes on the event loop and never completes for a request
     * the handler answers. Call it on the event loop.
     */
    default CompletionStage<Void> clientGone() {
        return new CompletableFuture<>();
    }

    /**
     * The builder of this request's {@link RequestLog}, for facts only the handling code knows, such
     * as the route that matched or the upstream that answered. The server's builder keeps nothing when
     * no {@link RequestListener} is registered; this default, for a context made outside a server,
     * drops every fact.
     */
    default RequestLogBuilder log() {
        return NoRequestLog.INSTANCE;
    }

    /**
     * What the TLS handshake of the request's connection settled (protocol, cipher, SNI name, the
     * client's verified certificates); empty over cleartext.
     */
    default Optional<TlsInfo> tls() {
        return Optional.empty();
    }

    /**
     * When the server received the request's head, as a {@link System#nanoTime()} reading: where the time the
     * request has spent in this server starts, such as the share of a caller's deadline a proxy has used. This
     * default, for a context made outside a server, is the time of the call.
     */
    default long receivedNanos() {
        return System.nanoTime();
    }

    /** The protocol version, for example {@code HTTP/1.1}. */
    String protocol();

    /**
     * The connection's event loop, for timers and continuations that must not block. Tasks run with
     * this context current. It cannot be shut down.
     */
    ScheduledExecutorService eventLoop();

    /**
     * Runs blocking work on the server's worker executor with this context current.
     *
     * @return a stage that completes with the work's response; it fails with a 503
     *     {@link io.parry.http.HttpStatusException} at once when the executor is full
     */
    CompletionStage<HttpResponse> runBlocking(Callable<HttpResponse> work);
}
