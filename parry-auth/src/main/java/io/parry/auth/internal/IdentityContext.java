package io.parry.auth.internal;

import io.parry.auth.Identity;
import io.parry.http.HttpRequest;
import io.parry.http.HttpResponse;
import io.parry.http.tracing.TraceContext;
import io.parry.server.RequestContext;
import io.parry.server.RequestLogBuilder;
import io.parry.server.TlsInfo;
import java.net.InetSocketAddress;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.Callable;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.ScheduledExecutorService;

/** The context an authentication filter passes on: the server's context with the verified identity. */
public final class IdentityContext implements RequestContext {
    private final RequestContext delegate;
    private final Identity identity;

    public IdentityContext(RequestContext delegate, Identity identity) {
        this.delegate = delegate instanceof IdentityContext inner ? inner.delegate : delegate;
        this.identity = identity;
    }

    public Identity identity() {
        return identity;
    }

    @Override
    public HttpRequest request() {
        return delegate.request();
    }

    @Override
    public String requestId() {
        return delegate.requestId();
    }

    @Override
    public TraceContext traceContext() {
        return delegate.traceContext();
    }

    @Override
    public InetSocketAddress remoteAddress() {
        return delegate.remoteAddress();
    }

    @Override
    public InetSocketAddress localAddress() {
        return delegate.localAddress();
    }

    @Override
    public Map<String, String> pathParams() {
        return delegate.pathParams();
    }

    @Override
    public CompletionStage<Void> clientGone() {
        return delegate.clientGone();
    }

    @Override
    public RequestLogBuilder log() {
        return delegate.log();
    }

    @Override
    public long receivedNanos() {
        return delegate.receivedNanos();
    }

    @Override
    public Optional<TlsInfo> tls() {
        return delegate.tls();
    }

    @Override
    public String protocol() {
        return delegate.protocol();
    }

    @Override
    public ScheduledExecutorService eventLoop() {
        return delegate.eventLoop();
    }

    @Override
    public CompletionStage<HttpResponse> runBlocking(Callable<HttpResponse> work) {
        return delegate.runBlocking(work);
    }

    @Override
    public String toString() {
        return delegate + " as " + identity.scheme() + " " + identity.subject();
    }
}
