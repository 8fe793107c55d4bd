package io.parry.gateway.internal.routing;

import static java.util.Objects.requireNonNull;

import io.parry.http.HttpRequest;
import io.parry.http.HttpResponse;
import io.parry.server.Handler;
import io.parry.server.RequestContext;
import java.util.concurrent.CompletionStage;

/**
 * One compiled route: its name, where it matches, its conditions and the handler that answers (a
 * proxy, a fixed response or a redirect). Immutable and shared by every event loop.
 */
public final class GatewayRoute {
    private final String name;
    private final PathPattern pattern;
    private final Conditions conditions;
    private final Handler handler;
    private final boolean passesParams;

    private GatewayRoute(
            String name, PathPattern pattern, Conditions conditions, Handler handler, boolean passesParams) {
        this.name = requireNonNull(name, "name");
        this.pattern = requireNonNull(pattern, "pattern");
        this.conditions = requireNonNull(conditions, "conditions");
        this.handler = requireNonNull(handler, "handler");
        this.passesParams = passesParams;
    }

    /** A route whose handler needs no path parameters. */
    public static GatewayRoute of(String name, PathPattern pattern, Conditions conditions, Handler handler) {
        return new GatewayRoute(name, pattern, conditions, handler, false);
    }

    /**
     * A route whose handler reads the template's parameters from {@link RequestContext#pathParams()},
     * as a proxy with a path template does; they are decoded only for such a route.
     */
    public static GatewayRoute withParams(String name, PathPattern pattern, Conditions conditions, Handler handler) {
        return new GatewayRoute(name, pattern, conditions, handler, pattern.kind() == PathPattern.Kind.TEMPLATE);
    }

    /** The route's name. */
    public String name() {
        return name;
    }

    /** Where the route matches. */
    public PathPattern pattern() {
        return pattern;
    }

    /** The route's method, host and header conditions. */
    public Conditions conditions() {
        return conditions;
    }

    /** Answers a request this route was selected for. */
    public CompletionStage<HttpResponse> handle(RequestContext ctx, HttpRequest request) throws Exception {
        ctx.log().route(name);
        if (!passesParams) {
            return handler.handle(ctx, request);
        }
        return handler.handle(new ParamsContext(ctx, pattern.params(request.path())), request);
    }

    @Override
    public String toString() {
        return "GatewayRoute(" + name + ", " + pattern + ")";
    }
}
