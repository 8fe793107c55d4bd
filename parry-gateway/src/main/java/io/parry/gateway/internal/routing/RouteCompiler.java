package io.parry.gateway.internal.routing;

import io.parry.gateway.internal.config.GatewayConfig;
import io.parry.gateway.internal.config.MatchConfig;
import io.parry.gateway.internal.config.MatchKind;
import io.parry.gateway.internal.config.ProxyAction;
import io.parry.gateway.internal.config.RedirectAction;
import io.parry.gateway.internal.config.RespondAction;
import io.parry.gateway.internal.config.RouteConfig;
import io.parry.gateway.internal.upstream.UpstreamGroup;
import io.parry.http.HttpMethod;
import io.parry.proxy.ForwardingOptions;
import io.parry.proxy.PathRewrite;
import io.parry.proxy.ProxyHandler;
import io.parry.server.Handler;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * Compiles a configuration's routes into a {@link RouteTable} over running upstream groups: a
 * {@link ProxyHandler} per proxy route with its rewrites, header rules, timeouts and retry policy, a
 * {@link FixedResponse} or a {@link Redirect} for the others.
 */
public final class RouteCompiler {
    private RouteCompiler() {}

    /**
     * The table for the configuration's routes, or the problems that keep a route from being built,
     * one sentence each, prefixed by the route's name.
     */
    public static Result compile(GatewayConfig config, Map<String, UpstreamGroup> groups) {
        ForwardingOptions forwarding = config.forwarding();
        RouteTable.Builder table = RouteTable.builder();
        List<String> errors = new ArrayList<>();
        for (RouteConfig route : config.routes()) {
            try {
                table.add(compile(route, groups, forwarding));
            } catch (IllegalArgumentException e) {
                errors.add("routes." + route.name() + ": " + e.getMessage());
            }
        }
        return errors.isEmpty() ? new Result(table.build(), List.of()) : new Result(null, List.copyOf(errors));
    }

    private static GatewayRoute compile(
            RouteConfig route, Map<String, UpstreamGroup> groups, ForwardingOptions forwarding) {
        PathPattern pattern = pattern(route.match());
        Conditions conditions = conditions(route.match());
        if (route.action() instanceof ProxyAction) {
            ProxyAction proxy = (ProxyAction) route.action();
            Handler handler = proxy(proxy, groups, forwarding);
            if (proxy.path().kind() != PathRewrite.Kind.TEMPLATE) {
                return GatewayRoute.of(route.name(), pattern, conditions, handler);
            }
            checkTemplateParams(proxy.path().pattern(), pattern);
            return GatewayRoute.withParams(route.name(), pattern, conditions, handler);
        }
        if (route.action() instanceof RespondAction) {
            RespondAction respond = (RespondAction) route.action();
            Handler handler =
                    FixedResponse.of(respond.status(), respond.body(), respond.contentType(), respond.headers());
            return GatewayRoute.of(route.name(), pattern, conditions, handler);
        }
        RedirectAction redirect = (RedirectAction) route.action();
        Handler handler = Redirect.of(redirect.status(), redirect.location(), redirect.keepPath(), pattern);
        return GatewayRoute.of(route.name(), pattern, conditions, handler);
    }

    private static Handler proxy(ProxyAction proxy, Map<String, UpstreamGroup> groups, ForwardingOptions forwarding) {
        UpstreamGroup group = groups.get(proxy.upstream());
        if (group == null) {
            throw new IllegalArgumentException(
                    "upstream " + proxy.upstream() + " is not defined (expected: a name under upstreams)");
        }
        ProxyHandler.Builder builder = ProxyHandler.builder(group.guarded())
                .path(proxy.path())
                .host(proxy.host())
                .requestHeaders(proxy.requestHeaders())
                .responseHeaders(proxy.responseHeaders())
                .forwarding(forwarding)
                .retry(proxy.retry());
        if (!proxy.timeouts().isEmpty()) {
            builder.timeouts(proxy.timeouts().applyTo(group.config().client().timeouts()));
        }
        return builder.build();
    }

    private static PathPattern pattern(MatchConfig match) {
        if (match.kind() == MatchKind.PREFIX) {
            return PathPattern.prefix(match.path());
        }
        return PathPattern.path(match.path());
    }

    private static Conditions conditions(MatchConfig match) {
        List<HttpMethod> methods = new ArrayList<>();
        match.methods().forEach(method -> methods.add(HttpMethod.of(method)));
        return Conditions.of(methods, match.host(), match.headers());
    }

    /** A path template rewrite can only use parameters the route's own template captures. */
    private static void checkTemplateParams(String template, PathPattern pattern) {
        List<String> used = PathPattern.path(template).paramNames();
        for (String name : used) {
            if (!pattern.paramNames().contains(name)) {
                throw new IllegalArgumentException("pathTemplate " + template + " uses {" + name
                        + "}, which the route's path does not capture (expected: a match path such as /x/{" + name
                        + "})");
            }
        }
    }

    /**
     * A compiled table or why there is none.
     *
     * @param table the table, or {@code null} when there are errors
     * @param errors the problems, one sentence each; empty when the table was built
     */
    public record Result(RouteTable table, List<String> errors) {}
}
