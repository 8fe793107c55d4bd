package io.parry.server.cors;

import io.parry.http.HttpResponse;
import io.parry.server.RequestContext;
import java.net.InetSocketAddress;
import java.util.concurrent.Callable;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.ScheduledExecutorService;

/** The least context a filter needs in a unit test: it has an id and nothing to schedule on. */
final class FakeContext implements RequestContext {
    static final FakeContext INSTANCE = new FakeContext();

    private FakeContext() {}

    @Override
    public String requestId() {
        return "test-1";
    }

    @Override
    public InetSocketAddress remoteAddress() {
        return InetSocketAddress.createUnresolved("127.0.0.1", 50000);
    }

    @Override
    public InetSocketAddress localAddress() {
        return InetSocketAddress.createUnresolved("127.0.0.1", 8080);
    }

    @Override
    public String protocol() {
        return "HTTP/1.1";
    }

    @Override
    public ScheduledExecutorService eventLoop() {
        throw new UnsupportedOperationException("no event loop in this test");
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
