package io.parry.testing;

import io.parry.http.HttpRequest;
import io.parry.http.HttpResponse;
import io.parry.http.HttpStatus;
import io.parry.http.HttpStatusException;
import io.parry.http.tracing.TraceContext;
import io.parry.http.tracing.TracePropagation;
import io.parry.server.RequestContext;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.UnknownHostException;
import java.util.concurrent.Callable;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.ScheduledExecutorService;

/**
 * The context of a request that a {@link HandlerTester} runs: fixed loopback addresses, no path
 * parameters, the trace from the request's fields or a new one.
 */
final class TestContext implements RequestContext {
    static final InetSocketAddress REMOTE = loopback(50_000);
    static final InetSocketAddress LOCAL = loopback(8080);

    private final String requestId;
    private final HttpRequest request;
    private final TestEventLoop eventLoop;
    private final ExecutorService workers;
    private final TraceContext trace;

    TestContext(String requestId, HttpRequest request, TestEventLoop eventLoop, ExecutorService workers) {
        this.request = request;
        this.requestId = requestId;
        this.eventLoop = eventLoop;
        this.workers = workers;
        this.trace = TracePropagation.ofDefault().nextSpan(request.headers());
    }

    private static InetSocketAddress loopback(int port) {
        try {
            return new InetSocketAddress(InetAddress.getByAddress("localhost", new byte[] {127, 0, 0, 1}), port);
        } catch (UnknownHostException e) {
            throw new IllegalStateException(e); // Never: four bytes are a valid address.
        }
    }

    @Override
    public HttpRequest request() {
        return request;
    }

    @Override
    public String requestId() {
        return requestId;
    }

    @Override
    public TraceContext traceContext() {
        return trace;
    }

    @Override
    public InetSocketAddress remoteAddress() {
        return REMOTE;
    }

    @Override
    public InetSocketAddress localAddress() {
        return LOCAL;
    }

    @Override
    public String protocol() {
        return "HTTP/1.1";
    }

    @Override
    public ScheduledExecutorService eventLoop() {
        return eventLoop;
    }

    @Override
    public CompletionStage<HttpResponse> runBlocking(Callable<HttpResponse> work) {
        CompletableFuture<HttpResponse> result = new CompletableFuture<>();
        try {
            workers.execute(() -> {
                try {
                    result.complete(work.call());
                } catch (Throwable t) {
                    result.completeExceptionally(t);
                }
            });
        } catch (RejectedExecutionException e) {
            result.completeExceptionally(
                    new HttpStatusException(HttpStatus.SERVICE_UNAVAILABLE, "The server is busy; try again later."));
        }
        return result;
    }

    @Override
    public String toString() {
        return "TestContext(" + requestId + ")";
    }
}
