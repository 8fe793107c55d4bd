package io.parry.gateway.internal.routing;

import io.parry.http.HttpRequest;
import io.parry.http.HttpResponse;
import io.parry.http.tracing.TraceContext;
import io.parry.server.RequestContext;
import io.parry.server.RequestLogBuilder;
import java.net.InetSocketAddress;
import java.util.Map;
import java.util.concurrent.Callable;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.ScheduledExecutorService;

/** The server's context with the path parameters of the template route that took the request. */
final class ParamsContext implements RequestContext {
    private final RequestContext delegate;
    private final Map<String, String> pathParams;

    ParamsContext(RequestContext delegate, Map<String, String> pathParams) {
        this.delegate = delegate;
        this.pathParams = pathParams;
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
        return pathParams;
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
}
