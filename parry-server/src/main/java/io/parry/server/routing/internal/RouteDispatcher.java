package io.parry.server.routing.internal;

import io.parry.http.HttpRequest;
import io.parry.http.HttpResponse;
import io.parry.server.Handler;
import io.parry.server.RequestContext;
import io.parry.server.RequestLogBuilder;
import io.parry.server.internal.CurrentContext;
import io.parry.server.internal.NoRequestLog;
import java.util.concurrent.CompletionStage;

/**
 * Finds the route for a request and calls its bound handler. A route that captured nothing gets the
 * caller's context as it is; otherwise a {@link RoutedContext} is made current for the call. A
 * router mounted under another starts matching where the mount's prefix ended. The matched route's
 * name or pattern goes into the request log; a miss leaves the log as it was.
 */
public final class RouteDispatcher implements Handler {
    private final RouteTable table;

    public RouteDispatcher(RouteTable table) {
        this.table = table;
    }

    @Override
    public CompletionStage<HttpResponse> handle(RequestContext ctx, HttpRequest request) throws Exception {
        String path = request.path();
        int start = 0;
        int emptyRestAt = -1;
        boolean routedBefore = ctx instanceof RoutedContext;
        if (routedBefore) {
            int offset = ((RoutedContext) ctx).mountOffset();
            if (offset == path.length()) {
                emptyRestAt = offset;
                path = "/";
            } else if (offset > 0) {
                start = offset;
            }
        }
        if (path.isEmpty() || path.charAt(start) != '/') {
            return new RouteMiss().toResponse(ctx, request).toStage();
        }
        RouteEntry entry = table.find(path, start, ctx, request);
        if (entry == null) {
            return table.diagnose(path, start, ctx, request)
                    .toResponse(ctx, request)
                    .toStage();
        }
        recordRoute(ctx, entry);
        if (!entry.capturing && !routedBefore) {
            return entry.handler.handle(ctx, request);
        }
        RoutedContext routed = RoutedContext.of(ctx, entry, path, start, emptyRestAt);
        return CurrentContext.call(routed, () -> entry.handler.handle(routed, request));
    }

    /** Names the route in the request log; a mounted router's route gets its mount's prefix. */
    private static void recordRoute(RequestContext ctx, RouteEntry entry) {
        RequestLogBuilder log = ctx.log();
        if (log == NoRequestLog.INSTANCE) {
            return; // Nobody listens: spare the prefix concatenation below.
        }
        String prefix = ctx instanceof RoutedContext ? ((RoutedContext) ctx).routePrefix() : null;
        log.route(prefix == null || entry.named ? entry.routeName : PathPattern.join(prefix, entry.routeName));
    }
}
