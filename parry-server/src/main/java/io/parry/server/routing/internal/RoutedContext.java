package io.parry.server.routing.internal;

import io.parry.http.HttpRequest;
import io.parry.http.HttpResponse;
import io.parry.http.tracing.TraceContext;
import io.parry.server.RequestContext;
import io.parry.server.RequestLogBuilder;
import io.parry.server.TlsInfo;
import io.parry.server.internal.CurrentContext;
import io.parry.server.internal.TracedContext;
import io.parry.transport.spi.EventLoopScheduler;
import io.parry.transport.spi.TaskWrapper;
import java.net.InetSocketAddress;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.Callable;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.ScheduledExecutorService;

/**
 * The context a route's handler sees when its pattern captured something: the server's context with
 * the decoded path parameters, and for a mount the offset where the rest of the path starts. It is
 * current wherever the server's context would be: in the handler, in blocking work and in event-loop
 * tasks.
 */
public final class RoutedContext implements RequestContext, TracedContext {
    private final RequestContext delegate;
    private final Map<String, String> pathParams;
    private final int mountOffset;
    /** The mount context this one is inside, if any, for the route prefix. */
    private final RoutedContext outer;
    /** This mount's own prefix pattern, or {@code null} when this context is not from a mount. */
    private final String mountPattern;
    /** {@link #eventLoop()}, once asked for. */
    private ScheduledExecutorService eventLoop;

    private RoutedContext(
            RequestContext delegate,
            Map<String, String> pathParams,
            int mountOffset,
            RoutedContext outer,
            String mountPattern) {
        this.delegate = delegate;
        this.pathParams = pathParams;
        this.mountOffset = mountOffset;
        this.outer = outer;
        this.mountPattern = mountPattern;
    }

    /**
     * The context for a route that matched the path from {@code start}. {@code emptyRestAt} is -1,
     * or the end of the request's path when a mounted router matched {@code "/"} in place of an empty
     * rest of it.
     */
    public static RoutedContext of(RequestContext ctx, RouteEntry entry, String path, int start, int emptyRestAt) {
        String[] names = entry.paramNames;
        String[] values = new String[names.length];
        int[] paramSegments = entry.paramSegments;
        int segments = entry.segmentCount;
        int end = path.length();
        int pos = start;
        int param = 0;
        for (int segment = 0; segment < segments; segment++) {
            int from = pos + 1;
            boolean captured = param < names.length && paramSegments[param] == segment;
            if (captured && segment == segments - 1 && entry.endsWithCatchAll) {
                values[param++] = PercentDecoding.decode(path, from, end, true);
                pos = end;
                break;
            }
            int to = path.indexOf('/', from);
            if (to < 0) {
                to = end;
            }
            if (captured) {
                values[param++] = PercentDecoding.decode(path, from, to, false);
            }
            pos = to;
        }
        int mountOffset = !entry.mount ? -1 : emptyRestAt >= 0 ? emptyRestAt : pos;
        RequestContext delegate = ctx;
        Map<String, String> params;
        RoutedContext outer = null;
        if (ctx instanceof RoutedContext) {
            outer = (RoutedContext) ctx;
            delegate = outer.delegate;
            params = PathParams.concat(ctx.pathParams(), names, values);
        } else {
            params = new PathParams(names, values);
        }
        return new RoutedContext(delegate, params, mountOffset, outer, entry.mount ? entry.pattern.toString() : null);
    }

    /**
     * The route pattern text of the mounts this context is inside, for example {@code /v2}, which
     * a mounted router puts before its own patterns in the request log; {@code null} when this context
     * is not from a mount. Joined only when asked, which is only when someone listens.
     */
    String routePrefix() {
        if (mountPattern == null) {
            return null;
        }
        String outerPrefix = outer == null ? null : outer.routePrefix();
        return outerPrefix == null ? mountPattern : outerPrefix + mountPattern;
    }

    /** Where the path a mounted router should match starts, or -1 when this context is not from a mount. */
    public int mountOffset() {
        return mountOffset;
    }

    @Override
    public HttpRequest request() {
        return delegate.request();
    }

    @Override
    public Map<String, String> pathParams() {
        return pathParams;
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
    public TraceContext mdcTrace() {
        return delegate instanceof TracedContext ? ((TracedContext) delegate).mdcTrace() : null;
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
    public InetSocketAddress remoteAddress() {
        return delegate.remoteAddress();
    }

    @Override
    public InetSocketAddress localAddress() {
        return delegate.localAddress();
    }

    @Override
    public Optional<TlsInfo> tls() {
        return delegate.tls();
    }

    @Override
    public String protocol() {
        return delegate.protocol();
    }

    /**
     * The event loop, running each task with this context current: one scheduler per context, made on
     * first use (a race makes two equal ones, and either serves).
     */
    @Override
    public ScheduledExecutorService eventLoop() {
        ScheduledExecutorService scheduler = eventLoop;
        if (scheduler == null) {
            scheduler = new EventLoopScheduler(delegate.eventLoop(), new CurrentTasks());
            eventLoop = scheduler;
        }
        return scheduler;
    }

    @Override
    public CompletionStage<HttpResponse> runBlocking(Callable<HttpResponse> work) {
        return delegate.runBlocking(() -> CurrentContext.call(this, work));
    }

    @Override
    public CompletionStage<Void> clientGone() {
        return delegate.clientGone();
    }

    @Override
    public String toString() {
        return "RoutedContext(" + delegate + ", " + pathParams + ")";
    }

    /** Runs each task with this context current. */
    private final class CurrentTasks implements TaskWrapper {
        @Override
        public Runnable wrap(Runnable task) {
            return () -> CurrentContext.run(RoutedContext.this, task);
        }

        @Override
        public <V> Callable<V> wrap(Callable<V> task) {
            return () -> CurrentContext.call(RoutedContext.this, task);
        }
    }
}
