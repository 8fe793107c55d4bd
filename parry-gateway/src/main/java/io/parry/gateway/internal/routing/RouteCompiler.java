package io.parry.gateway.internal.routing;

import io.parry.gateway.internal.config.GatewayConfig;
import io.parry.gateway.internal.config.MatchConfig;
import io.parry.gateway.internal.config.MatchKind;
import io.parry.gateway.internal.config.ProxyAction;
import io.parry.gateway.internal.config.RedirectAction;
import io.parry.gateway.internal.config.RespondAction;
import io.parry.gateway.internal.config.RouteConfig;
import io.parry.gateway.internal.config.SplitConfig;
import io.parry.gateway.internal.ratelimit.RateLimits;
import io.parry.gateway.internal.upstream.UpstreamGroup;
import io.parry.http.AddressBlocks;
import io.parry.http.HttpMethod;
import io.parry.proxy.ForwardingOptions;
import io.parry.proxy.ProxyHandler;
import io.parry.proxy.TrafficSplit;
import io.parry.ratelimit.RateLimitObserver;
import io.parry.server.Handler;
import io.parry.server.Overload;
import io.parry.server.Priority;
import io.parry.server.routing.RouteSpec;
import io.parry.server.routing.Router;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.function.Consumer;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Compiles a configuration's routes onto a {@link Router} over running upstream groups: a
 * {@link ProxyHandler} per proxy route (a {@link TrafficSplit} over one per group for a split route) with its rewrites, header rules, timeouts and retry policy, a
 * {@link FixedResponse} or a {@link Redirect} for the others, behind the route's rate limit if it has one. A {@code prefix} match is the pattern
 * {@code /prefix/**}, {@code methods} a route per method (none: a route for every method), {@code
 * host}, {@code headers}, {@code query}, {@code cookies} and {@code clientAddress} (after the
 * forwarding section's trusted proxies) the route's conditions, and the route's name what the access log and
 * metrics call it. A route that an earlier one hides is logged, not refused: in a file, the first
 * declared route has always won.
 */
public final class RouteCompiler {
    private static final Logger log = LoggerFactory.getLogger(RouteCompiler.class);

    private RouteCompiler() {}

    /**
     * The router for the configuration's routes, or the problems that keep a route from being built,
     * one sentence each, prefixed by the route's name. Authentication's key sets and their client come
     * from {@code resources}, which outlive the table.
     */
    public static Result compile(GatewayConfig config, Map<String, UpstreamGroup> groups, AuthResources resources) {
        return compile(
                config,
                groups,
                resources,
                new RateLimits(RateLimitObserver.NONE).prepare(config.forwarding(), null),
                null);
    }

    /**
     * The router, as {@link #compile(GatewayConfig, Map, AuthResources)}, with each route's rate limit
     * filter taken from {@code rateLimits}, and, when the configuration turns shedding on, each route
     * but the exempt ones behind {@code overload}'s filter for its priority, outside all the others: a
     * shed request costs no authentication or limit.
     */
    public static Result compile(
            GatewayConfig config,
            Map<String, UpstreamGroup> groups,
            AuthResources resources,
            RateLimits.Change rateLimits,
            Overload overload) {
        boolean shedding = overload != null && config.overload().isEnabled();
        ForwardingOptions forwarding = config.forwarding();
        Router.Builder router = Router.builder().onShadowedRoute(finding -> log.warn("Routes: {}", finding));
        List<String> errors = new ArrayList<>();
        for (RouteConfig route : config.routes()) {
            try {
                // Limits run inside authentication, so that a limit keyed by a verified claim sees it.
                Handler handler = handler(route, groups, forwarding);
                if (route.protection().compression() != null) {
                    handler = route.protection().compression().wrap(handler);
                }
                if (route.rateLimit() != null) {
                    handler = handler.with(rateLimits.filter(route.name(), route.rateLimit()));
                }
                handler = ProtectionFilters.wrap(handler, route.protection(), resources);
                if (shedding && route.priority() != Priority.EXEMPT) {
                    handler = handler.with(overload.filter(route.priority()));
                }
                add(router, route, handler, forwarding);
            } catch (IllegalArgumentException e) {
                errors.add("routes." + route.name() + ": " + e.getMessage());
            }
        }
        if (!errors.isEmpty()) {
            return new Result(null, List.copyOf(errors));
        }
        try {
            return new Result(router.build(), List.of());
        } catch (IllegalStateException e) {
            return new Result(null, List.of("routes: " + e.getMessage()));
        }
    }

    private static void add(Router.Builder router, RouteConfig route, Handler handler, ForwardingOptions forwarding) {
        MatchConfig match = route.match();
        String pattern = match.kind() != MatchKind.PREFIX ? match.path() : prefixPattern(match.path());
        AddressBlocks clients =
                match.clientAddress().isEmpty() ? null : AddressBlocks.parse("clientAddress", match.clientAddress());
        Consumer<RouteSpec> spec = conditions -> {
            conditions.name(route.name());
            if (match.host() != null) {
                conditions.host(match.host());
            }
            match.headers().forEach(conditions::header);
            match.query().forEach((name, value) -> {
                if (value == null) {
                    conditions.queryPresent(name);
                } else {
                    conditions.query(name, value);
                }
            });
            match.cookies().forEach(conditions::cookie);
            if (clients != null) {
                conditions.clientAddress(clients, forwarding.trustedProxyBlocks());
            }
        };
        if (match.methods().isEmpty()) {
            router.all(pattern, handler, spec);
        }
        for (String method : match.methods()) {
            router.route(HttpMethod.of(method), pattern, handler, spec);
        }
    }

    /** A prefix matches at segment boundaries, as {@code /**} does; {@code /} matches every path. */
    private static String prefixPattern(String prefix) {
        return prefix.equals("/") ? "/**" : prefix + "/**";
    }

    private static Handler handler(RouteConfig route, Map<String, UpstreamGroup> groups, ForwardingOptions forwarding) {
        if (route.action() instanceof ProxyAction proxy) {
            return proxy(route.name(), proxy, groups, forwarding);
        }
        if (route.action() instanceof RespondAction respond) {
            return FixedResponse.of(respond.status(), respond.body(), respond.contentType(), respond.headers());
        }
        RedirectAction redirect = (RedirectAction) route.action();
        MatchConfig match = route.match();
        return Redirect.of(
                redirect.status(),
                redirect.location(),
                redirect.keepPath(),
                match.kind() == MatchKind.PREFIX ? match.path() : null);
    }

    private static Handler proxy(
            String name, ProxyAction proxy, Map<String, UpstreamGroup> groups, ForwardingOptions forwarding) {
        SplitConfig split = proxy.split();
        if (split == null) {
            return proxy(name, proxy, proxy.upstream(), groups, forwarding);
        }
        TrafficSplit.Builder sides = TrafficSplit.builder();
        for (SplitConfig.Target target : split.targets()) {
            Handler side = proxy(name, proxy, target.upstream(), groups, forwarding);
            // A sticky user whose side lost every endpoint is served by the other side, not 503s.
            sides.to(
                    side,
                    target.weight(),
                    groups.get(target.upstream()).guarded().upstream()::hasHealthyEndpoint);
        }
        if (split.stickyHeader() != null) {
            sides.stickyHeader(split.stickyHeader());
        }
        if (split.stickyCookie() != null) {
            sides.stickyCookie(split.stickyCookie());
        }
        return sides.build();
    }

    private static Handler proxy(
            String name,
            ProxyAction proxy,
            String upstream,
            Map<String, UpstreamGroup> groups,
            ForwardingOptions forwarding) {
        UpstreamGroup group = groups.get(upstream);
        if (group == null) {
            throw new IllegalArgumentException(
                    "upstream " + upstream + " is not defined (expected: a name under upstreams)");
        }
        ProxyHandler.Builder builder = ProxyHandler.builder(group.guarded())
                .path(proxy.path())
                .host(proxy.host())
                .requestHeaders(proxy.requestHeaders())
                .responseHeaders(proxy.responseHeaders())
                .forwarding(forwarding)
                .retry(proxy.retry())
                .webSocket(proxy.webSocket())
                .name(name);
        if (!proxy.timeouts().isEmpty()) {
            builder.timeouts(proxy.timeouts().applyTo(group.config().client().timeouts()));
        }
        return builder.build();
    }

    /**
     * A compiled router or why there is none.
     *
     * @param table the router, or {@code null} when there are errors
     * @param errors the problems, one sentence each; empty when the router was built
     */
    public record Result(Router table, List<String> errors) {}
}
