package io.parry.gateway.internal.routing;

import static java.util.Objects.requireNonNull;

import io.parry.http.HttpRequest;
import io.parry.http.HttpResponse;
import io.parry.server.Handler;
import io.parry.server.RequestContext;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;
import java.util.function.Supplier;

/**
 * The gateway listener's handler: reads the live route table once per request, so a request finishes
 * on the table it started with whatever reload happens meanwhile, and passes it to its route, or
 * answers 404 or 405 when none takes it.
 */
public final class GatewayHandler implements Handler {
    private final Supplier<RouteTable> table;

    /** A handler over the table the supplier gives; it must be cheap, such as an atomic read. */
    public GatewayHandler(Supplier<RouteTable> table) {
        this.table = requireNonNull(table, "table");
    }

    @Override
    public CompletionStage<HttpResponse> handle(RequestContext ctx, HttpRequest request) throws Exception {
        RouteTable routes = table.get();
        GatewayRoute route = routes.select(request);
        if (route == null) {
            return CompletableFuture.completedFuture(routes.miss(ctx, request));
        }
        return route.handle(ctx, request);
    }
}
