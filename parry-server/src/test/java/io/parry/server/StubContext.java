package io.parry.server;

import io.parry.http.HttpResponse;
import java.net.InetSocketAddress;
import java.util.concurrent.Callable;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.ScheduledExecutorService;

/**
 * A request context for unit tests without a server: fixed id and addresses, blocking work inline, no event loop
 * unless given one.
 */
public final class StubContext implements RequestContext {
    private final InetSocketAddress remoteAddress;
    private final ScheduledExecutorService eventLoop;

    /** A context whose client is the unresolved address {@code client:1}. */
    public StubContext() {
        this(InetSocketAddress.createUnresolved("client", 1));
    }

    /** A context whose client is this address. */
    public StubContext(InetSocketAddress remoteAddress) {
        this(remoteAddress, null);
    }

    /** A context whose event loop is this executor. */
    public StubContext(ScheduledExecutorService eventLoop) {
        this(InetSocketAddress.createUnresolved("client", 1), eventLoop);
    }

    private StubContext(InetSocketAddress remoteAddress, ScheduledExecutorService eventLoop) {
        this.remoteAddress = remoteAddress;
        this.eventLoop = eventLoop;
    }

    @Override
    public String requestId() {
        return "test-1";
    }

    @Override
    public InetSocketAddress remoteAddress() {
        return remoteAddress;
    }

    @Override
    public InetSocketAddress localAddress() {
        return InetSocketAddress.createUnresolved("server", 2);
    }

    @Override
    public String protocol() {
        return "HTTP/1.1";
    }

    @Override
    public ScheduledExecutorService eventLoop() {
        if (eventLoop == null) {
            throw new UnsupportedOperationException("no event loop in unit tests");
        }
        return eventLoop;
    }

    @Override
    public CompletionStage<HttpResponse> runBlocking(Callable<HttpResponse> work) {
        try {
            return CompletableFuture.completedFuture(work.call());
        } catch (Exception e) {
            return CompletableFuture.failedFuture(e);
        }
    }
}
