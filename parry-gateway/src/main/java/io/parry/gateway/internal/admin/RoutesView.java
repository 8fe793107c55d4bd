package io.parry.gateway.internal.admin;

import io.parry.gateway.internal.config.MatchConfig;
import io.parry.gateway.internal.config.MatchKind;
import io.parry.gateway.internal.config.ProxyAction;
import io.parry.gateway.internal.config.RedirectAction;
import io.parry.gateway.internal.config.RespondAction;
import io.parry.gateway.internal.config.RouteConfig;
import io.parry.gateway.internal.config.SplitConfig;
import io.parry.gateway.internal.config.TimeoutOverrides;
import io.parry.gateway.internal.reload.ActiveConfig;
import io.parry.gateway.internal.reload.ReloadFailure;
import io.parry.proxy.HeaderRules;
import io.parry.proxy.HostRewrite;
import io.parry.proxy.PathRewrite;
import io.parry.proxy.RetryPolicy;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;

/**
 * The body of {@code GET /admin/routes}: the live configuration's version and its routes in
 * declaration order, each with its match, action and rate limit in the configuration file's terms.
 */
final class RoutesView {
    private RoutesView() {}

    static Map<String, Object> of(ActiveConfig active, Optional<ReloadFailure> failure) {
        Map<String, Object> view = VersionView.of(active);
        List<Object> routes = new ArrayList<>();
        for (RouteConfig route : active.config().routes()) {
            Map<String, Object> entry = new LinkedHashMap<>();
            entry.put("name", route.name());
            entry.put("match", match(route.match()));
            entry.put("action", action(route));
            if (route.rateLimit() != null) {
                entry.put("rateLimit", RateLimitView.of(route.rateLimit()));
            }
            routes.add(entry);
        }
        view.put("routes", routes);
        failure.ifPresent(f -> view.put("lastReloadError", VersionView.failure(f)));
        return view;
    }

    private static Map<String, Object> match(MatchConfig match) {
        Map<String, Object> view = new LinkedHashMap<>();
        view.put(match.kind() == MatchKind.PREFIX ? "prefix" : "path", match.path());
        view.put("kind", match.kind().name().toLowerCase(Locale.ROOT));
        if (!match.methods().isEmpty()) {
            view.put("methods", match.methods());
        }
        if (match.host() != null) {
            view.put("host", match.host());
        }
        if (!match.headers().isEmpty()) {
            view.put("headers", match.headers());
        }
        if (!match.query().isEmpty()) {
            Map<String, Object> query = new LinkedHashMap<>();
            match.query().forEach((name, value) -> query.put(name, value == null ? Map.of("present", true) : value));
            view.put("query", query);
        }
        if (!match.cookies().isEmpty()) {
            view.put("cookies", match.cookies());
        }
        if (!match.clientAddress().isEmpty()) {
            view.put("clientAddress", match.clientAddress());
        }
        return view;
    }

    private static Map<String, Object> action(RouteConfig route) {
        Map<String, Object> view = new LinkedHashMap<>();
        if (route.action() instanceof ProxyAction) {
            view.put("proxy", proxy((ProxyAction) route.action()));
        } else if (route.action() instanceof RespondAction) {
            RespondAction respond = (RespondAction) route.action();
            Map<String, Object> fixed = new LinkedHashMap<>();
            fixed.put("status", respond.status());
            fixed.put("contentType", respond.contentType());
            fixed.put("body", respond.body());
            fixed.put("headers", respond.headers());
            view.put("respond", fixed);
        } else {
            RedirectAction redirect = (RedirectAction) route.action();
            Map<String, Object> target = new LinkedHashMap<>();
            target.put("location", redirect.location());
            target.put("status", redirect.status());
            target.put("keepPath", redirect.keepPath());
            view.put("redirect", target);
        }
        return view;
    }

    private static Map<String, Object> proxy(ProxyAction proxy) {
        Map<String, Object> view = new LinkedHashMap<>();
        if (proxy.split() == null) {
            view.put("upstream", proxy.upstream());
        } else {
            List<Object> sides = new ArrayList<>();
            for (SplitConfig.Target target : proxy.split().targets()) {
                Map<String, Object> side = new LinkedHashMap<>();
                side.put("upstream", target.upstream());
                side.put("weight", target.weight());
                sides.add(side);
            }
            view.put("split", sides);
            if (proxy.split().stickyHeader() != null) {
                view.put("sticky", "header:" + proxy.split().stickyHeader());
            } else if (proxy.split().stickyCookie() != null) {
                view.put("sticky", "cookie:" + proxy.split().stickyCookie());
            }
        }
        pathRewrite(proxy.path(), view);
        view.put("host", host(proxy.host()));
        if (!proxy.requestHeaders().isEmpty()) {
            view.put("requestHeaders", headers(proxy.requestHeaders()));
        }
        if (!proxy.responseHeaders().isEmpty()) {
            view.put("responseHeaders", headers(proxy.responseHeaders()));
        }
        if (!proxy.timeouts().isEmpty()) {
            view.put("timeouts", timeouts(proxy.timeouts()));
        }
        view.put("retry", retry(proxy.retry()));
        return view;
    }

    private static void pathRewrite(PathRewrite path, Map<String, Object> view) {
        switch (path.kind()) {
            case STRIP_PREFIX:
                view.put("stripPrefix", path.pattern());
                break;
            case REPLACE_PREFIX:
                view.put("replacePrefix", Map.of("prefix", path.pattern(), "with", path.replacement()));
                break;
            case TEMPLATE:
                view.put("pathTemplate", path.pattern());
                break;
            default:
                break;
        }
    }

    /** As the file says it: {@code keep}, {@code endpoint} or the host. */
    private static String host(HostRewrite host) {
        if (host.equals(HostRewrite.keep())) {
            return "keep";
        }
        return host.equals(HostRewrite.endpoint()) ? "endpoint" : host.fixedHost();
    }

    /** In the file's terms: fields added, fields set, names removed. */
    private static Map<String, Object> headers(HeaderRules rules) {
        Map<String, String> add = new LinkedHashMap<>();
        Map<String, String> set = new LinkedHashMap<>();
        List<String> remove = new ArrayList<>();
        for (HeaderRules.Rule rule : rules.rules()) {
            switch (rule.action()) {
                case ADD:
                    add.put(rule.name(), rule.value());
                    break;
                case SET:
                    set.put(rule.name(), rule.value());
                    break;
                default:
                    remove.add(rule.name());
                    break;
            }
        }
        Map<String, Object> view = new LinkedHashMap<>();
        view.put("add", add);
        view.put("set", set);
        view.put("remove", remove);
        return view;
    }

    private static Map<String, Object> timeouts(TimeoutOverrides timeouts) {
        Map<String, Object> view = new LinkedHashMap<>();
        putDuration(view, "connect", timeouts.connect());
        putDuration(view, "responseHeaders", timeouts.responseHeaders());
        putDuration(view, "bodyIdle", timeouts.bodyIdle());
        putDuration(view, "call", timeouts.call());
        return view;
    }

    private static Map<String, Object> retry(RetryPolicy retry) {
        Map<String, Object> view = new LinkedHashMap<>();
        view.put("maxAttempts", retry.maxAttempts());
        view.put("retryStatuses", List.copyOf(retry.retryStatuses()));
        view.put("backoff", Durations.format(retry.backoff()));
        view.put("maxBackoff", Durations.format(retry.maxBackoff()));
        view.put("budgetPercent", retry.budgetPercent());
        view.put("replayBufferSize", retry.replayBufferSize());
        return view;
    }

    private static void putDuration(Map<String, Object> view, String name, Duration duration) {
        if (duration != null) {
            view.put(name, Durations.format(duration));
        }
    }
}
