package io.parry.proxy.internal;

import io.parry.http.HttpResponse;
import io.parry.server.RequestContext;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.UnknownHostException;
import java.util.Map;
import java.util.concurrent.Callable;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.ScheduledExecutorService;

/** A request context for unit tests: a chosen peer address, protocol and path parameters; no event loop. */
final class PeerContext implements RequestContext {
    private final InetSocketAddress remote;
    private final String protocol;
    private final Map<String, String> pathParams;

    private PeerContext(InetSocketAddress remote, String protocol, Map<String, String> pathParams) {
        this.remote = remote;
        this.protocol = protocol;
        this.pathParams = pathParams;
    }

    /** A context for an HTTP/1.1 request from this literal address, which is parsed without DNS. */
    static PeerContext from(String address) {
        return new PeerContext(new InetSocketAddress(literal(address), 50_000), "HTTP/1.1", Map.of());
    }

    /** A context whose peer has no address, as for an unresolved socket address. */
    static PeerContext unresolved() {
        return new PeerContext(InetSocketAddress.createUnresolved("client", 50_000), "HTTP/1.1", Map.of());
    }

    static InetAddress literal(String address) {
        try {
            // A literal address is parsed, never looked up.
            return InetAddress.getByName(address);
        } catch (UnknownHostException e) {
            throw new IllegalArgumentException(address, e);
        }
    }

    PeerContext protocol(String protocol) {
        return new PeerContext(remote, protocol, pathParams);
    }

    PeerContext pathParams(Map<String, String> pathParams) {
        return new PeerContext(remote, protocol, pathParams);
    }

    @Override
    public String requestId() {
        return "test-1";
    }

    @Override
    public InetSocketAddress remoteAddress() {
        return remote;
    }

    @Override
    public InetSocketAddress localAddress() {
        return new InetSocketAddress(literal("127.0.0.1"), 8080);
    }

    @Override
    public Map<String, String> pathParams() {
        return pathParams;
    }

    @Override
    public String protocol() {
        return protocol;
    }

    @Override
    public ScheduledExecutorService eventLoop() {
        throw new UnsupportedOperationException("no event loop in unit tests");
    }

    @Override
    public CompletionStage<HttpResponse> runBlocking(Callable<HttpResponse> work) {
        throw new UnsupportedOperationException("no workers in unit tests");
    }
}
