package io.parry.gateway.internal.config;

import io.parry.proxy.HeaderRules;
import io.parry.proxy.HostRewrite;
import io.parry.proxy.PathRewrite;
import io.parry.proxy.RetryPolicy;
import io.parry.proxy.TrafficSplit;
import io.parry.proxy.WebSocketProxyOptions;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collection;
import java.util.HashSet;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * Reads a route's {@code proxy} action: the upstream it names (or its weighted split across several),
 * path and host rewrites, header rules, timeouts and retries.
 */
final class ProxyActionReader {
    static final List<String> KEYS = List.of(
            "upstream",
            "split",
            "sticky",
            "stripPrefix",
            "replacePrefix",
            "pathTemplate",
            "host",
            "requestHeaders",
            "responseHeaders",
            "timeouts",
            "retry",
            "webSocket");
    private static final List<String> REWRITE_KEYS = List.of("stripPrefix", "replacePrefix", "pathTemplate");
    static final List<String> REPLACE_PREFIX_KEYS = List.of("prefix", "with");
    static final List<String> SPLIT_KEYS = List.of("upstream", "weight");
    private static final String STICKY_EXPECTED = "header:<name> or cookie:<name>";
    static final List<String> HEADER_RULE_KEYS = List.of("add", "set", "remove");
    static final List<String> WEBSOCKET_KEYS =
            List.of("maxFrameSize", "maxMessageSize", "idleTimeout", "closeTimeout", "allowedOrigins");
    static final List<String> RETRY_KEYS =
            List.of("maxAttempts", "retryStatuses", "backoff", "maxBackoff", "budgetPercent", "replayBufferSize");

    private final Collection<String> upstreams;

    ProxyActionReader(Collection<String> upstreams) {
        this.upstreams = upstreams;
    }

    /** The action, or {@code null} if the node is not a mapping. */
    ProxyAction read(Section route, MatchConfig match) {
        Section section = route.section("proxy", route.context() + " proxy", KEYS);
        if (section == null) {
            return null;
        }
        boolean split = section.has("split");
        if (split && section.has("upstream")) {
            section.error(
                    section.keyLocation("split"),
                    section.context() + " has both 'upstream' and 'split' (expected exactly one)");
        }
        if (!split && section.has("sticky")) {
            section.invalid(
                    "sticky", section.context() + " has 'sticky' without 'split' (it chooses a side of a split)");
        }
        return new ProxyAction(
                split ? null : upstream(route, section),
                path(section, match),
                host(section),
                headerRules(section, "requestHeaders"),
                headerRules(section, "responseHeaders"),
                UpstreamReader.timeouts(section, section.context() + " timeouts"),
                retry(section),
                webSocket(section),
                split ? split(route, section) : null);
    }

    /** The split's sides, each an upstream defined in the file with a weight, and its sticky key. */
    private SplitConfig split(Section route, Section proxy) {
        String expected = "a list of mappings such as {upstream: canary, weight: 10}";
        YamlList list = proxy.list("split", expected);
        if (list == null) {
            return null;
        }
        List<SplitConfig.Target> targets = new ArrayList<>();
        Set<String> names = new HashSet<>();
        int total = 0;
        for (YamlNode item : list.items()) {
            Section side = Section.of(item, "split", proxy.context() + " split", proxy.errors(), SPLIT_KEYS);
            if (side == null) {
                continue;
            }
            String name = upstream(route, side);
            if (!side.has("weight")) {
                side.missing("weight", "an integer from 0 to " + TrafficSplit.MAX_TOTAL_WEIGHT);
            }
            int weight = side.integer("weight", 0, TrafficSplit.MAX_TOTAL_WEIGHT, 0);
            if (name != null && !names.add(name)) {
                side.invalid("upstream", "upstream '" + name + "' is in 'split' twice (expected each group once)");
            }
            total += weight;
            targets.add(new SplitConfig.Target(name, weight));
        }
        if (targets.isEmpty()) {
            proxy.invalid("split", "'split' is empty (expected " + expected + ")");
        } else if (total < 1 || total > TrafficSplit.MAX_TOTAL_WEIGHT) {
            proxy.invalid(
                    "split",
                    "the weights in 'split' add up to " + total + " (expected 1 to " + TrafficSplit.MAX_TOTAL_WEIGHT
                            + ")");
        }
        String sticky = proxy.text("sticky", STICKY_EXPECTED);
        String header = sticky(sticky, "header:");
        String cookie = sticky(sticky, "cookie:");
        if (sticky != null && header == null && cookie == null) {
            proxy.invalid("sticky", "'sticky' must be " + STICKY_EXPECTED + ", got '" + sticky + "'");
        }
        return new SplitConfig(targets, header, cookie);
    }

    /** The name after {@code prefix} in the sticky key, if it starts with it and names a token. */
    private static String sticky(String sticky, String prefix) {
        if (sticky == null || !sticky.startsWith(prefix)) {
            return null;
        }
        String name = sticky.substring(prefix.length());
        return HeaderSyntax.isName(name) ? name : null;
    }

    /**
     * WebSocket upgrades are proxied on every proxy route with the library's defaults; {@code webSocket:
     * off} refuses them (the request reaches the upstream without its {@code Upgrade}), and a mapping
     * sets the session's limits and allowed origins.
     */
    private static WebSocketProxyOptions webSocket(Section proxy) {
        if (proxy.isOff("webSocket")) {
            return WebSocketProxyOptions.disabled();
        }
        Section section = proxy.section("webSocket", proxy.context() + " webSocket", WEBSOCKET_KEYS);
        WebSocketProxyOptions d = WebSocketProxyOptions.ofDefault();
        if (section == null) {
            return d;
        }
        int maxFrameSize = (int) section.size("maxFrameSize", 1, Integer.MAX_VALUE, d.maxFrameSize());
        long maxMessageSize = section.size("maxMessageSize", 1, Long.MAX_VALUE, d.maxMessageSize());
        if (maxMessageSize < maxFrameSize) {
            section.invalid(
                    "maxMessageSize",
                    "'maxMessageSize' must be at least 'maxFrameSize' (" + maxFrameSize + " bytes), got "
                            + maxMessageSize + " bytes");
            maxMessageSize = maxFrameSize;
        }
        List<String> origins = section.strings("allowedOrigins", "an origin such as https://app.example");
        for (String origin : origins) {
            if (!isOrigin(origin)) {
                section.invalid(
                        "allowedOrigins",
                        "each entry of 'allowedOrigins' must be an origin such as https://app.example (scheme, host,"
                                + " optional port, no path), got '" + origin + "'");
            }
        }
        return WebSocketProxyOptions.builder()
                .maxFrameSize(maxFrameSize)
                .maxMessageSize(maxMessageSize)
                .idleTimeout(section.duration("idleTimeout", d.idleTimeout()))
                .closeTimeout(section.positiveDuration("closeTimeout", d.closeTimeout()))
                .allowedOrigins(new LinkedHashSet<>(origins))
                .build();
    }

    /** An origin as browsers send it (RFC 6454, section 6.1): scheme "://" host [":" port], nothing after. */
    private static boolean isOrigin(String text) {
        int scheme = text.indexOf("://");
        if (scheme <= 0 || scheme + 3 == text.length()) {
            return false;
        }
        for (int i = scheme + 3; i < text.length(); i++) {
            char c = text.charAt(i);
            if (c == '/' || c == '?' || c == '#' || c <= ' ' || c >= 0x7f) {
                return false;
            }
        }
        return true;
    }

    private String upstream(Section route, Section section) {
        String name = section.requiredString("upstream", "the name of an upstream group");
        if (name != null && !upstreams.contains(name)) {
            section.invalid(
                    "upstream",
                    route.context() + " proxies to upstream '" + name
                            + "', which is not defined (defined: "
                            + (upstreams.isEmpty() ? "none" : String.join(", ", upstreams))
                            + ")");
        }
        return name;
    }

    private PathRewrite path(Section section, MatchConfig match) {
        String first = null;
        for (String key : REWRITE_KEYS) {
            if (section.has(key) && first == null) {
                first = key;
            } else if (section.has(key)) {
                section.error(
                        section.keyLocation(key),
                        section.context() + " has both '" + first + "' and '" + key
                                + "' (expected at most one of stripPrefix, replacePrefix, pathTemplate)");
                return PathRewrite.none();
            }
        }
        if (first == null) {
            return PathRewrite.none();
        }
        switch (first) {
            case "stripPrefix":
                return stripPrefix(section);
            case "replacePrefix":
                return replacePrefix(section);
            default:
                return template(section, match);
        }
    }

    private static PathRewrite stripPrefix(Section section) {
        String prefix = section.text("stripPrefix", "a path prefix such as /api");
        if (prefix == null || !isPrefix(prefix)) {
            if (prefix != null) {
                section.invalid(
                        "stripPrefix", "'stripPrefix' must be a path prefix such as /api, got '" + prefix + "'");
            }
            return PathRewrite.none();
        }
        return PathRewrite.stripPrefix(prefix);
    }

    private static PathRewrite replacePrefix(Section proxy) {
        Section section = proxy.section("replacePrefix", proxy.context() + " replacePrefix", REPLACE_PREFIX_KEYS);
        if (section == null) {
            return PathRewrite.none();
        }
        String prefix = section.requiredString("prefix", "the path prefix to replace, such as /api");
        String with = section.requiredString("with", "the path that replaces it, such as /v2");
        if (prefix == null || with == null) {
            return PathRewrite.none();
        }
        if (!isPrefix(prefix)) {
            section.invalid("prefix", "'prefix' must be a path prefix such as /api, got '" + prefix + "'");
            return PathRewrite.none();
        }
        if (!isPath(with)) {
            section.invalid("with", "'with' must be a path such as /v2, got '" + with + "'");
            return PathRewrite.none();
        }
        return PathRewrite.replacePrefix(prefix, with);
    }

    private static PathRewrite template(Section section, MatchConfig match) {
        String template = section.text("pathTemplate", "a path template such as /users/{id}");
        if (template == null) {
            return PathRewrite.none();
        }
        if (!isTemplate(template)) {
            section.invalid(
                    "pathTemplate",
                    "'pathTemplate' must be a path template such as /users/{id}, got '" + template
                            + "' (parameters are " + PathSyntax.PARAMETER_SYNTAX + ")");
            return PathRewrite.none();
        }
        if (match != null) {
            List<String> defined = match.kind() == MatchKind.TEMPLATE ? PathSyntax.parameters(match.path()) : List.of();
            for (String parameter : PathSyntax.parameters(template)) {
                if (!defined.contains(parameter)) {
                    section.invalid(
                            "pathTemplate",
                            "'pathTemplate' uses the parameter '" + parameter + "', which the route's path '"
                                    + match.path() + "' does not define");
                }
            }
        }
        return PathRewrite.template(template);
    }

    private static HostRewrite host(Section section) {
        String host = section.string("host", "keep");
        if (host.equals("keep")) {
            return HostRewrite.keep();
        }
        if (host.equals("endpoint")) {
            return HostRewrite.endpoint();
        }
        if (!isHost(host)) {
            section.invalid(
                    "host", "'host' must be keep, endpoint or a host name such as api.internal, got '" + host + "'");
            return HostRewrite.keep();
        }
        return HostRewrite.fixed(host);
    }

    /** The rules in the order they apply, whatever order the file gives them in: remove, then set, then add. */
    private static HeaderRules headerRules(Section proxy, String key) {
        Section section = proxy.section(key, proxy.context() + " " + key, HEADER_RULE_KEYS);
        if (section == null) {
            return HeaderRules.none();
        }
        int errorsBefore = section.errors().count();
        HeaderSyntax.check(section, "add");
        HeaderSyntax.check(section, "set");
        HeaderRules.Builder rules = HeaderRules.builder();
        for (YamlScalar name : section.scalars("remove", "a header name")) {
            HeaderSyntax.checkName(section, "remove", name.text(), name.location());
            rules.remove(name.text());
        }
        Map<String, String> add = section.stringMap("add", "a header value");
        section.stringMap("set", "a header value").forEach(rules::set);
        add.forEach(rules::add);
        return section.build(errorsBefore, rules::build, HeaderRules.none());
    }

    private static RetryPolicy retry(Section proxy) {
        if (proxy.isOff("retry")) {
            return RetryPolicy.none();
        }
        Section section = proxy.section("retry", proxy.context() + " retry", RETRY_KEYS);
        RetryPolicy d = RetryPolicy.ofDefault();
        if (section == null) {
            return d;
        }
        int errorsBefore = section.errors().count();
        Set<Integer> statuses = d.retryStatuses();
        if (section.has("retryStatuses")) {
            statuses = new LinkedHashSet<>();
            for (YamlScalar status : section.scalars("retryStatuses", "a status from 500 to 599")) {
                int value = status(status.text());
                if (value < 500 || value > 599) {
                    section.error(
                            status.location(),
                            "each entry of 'retryStatuses' must be a status from 500 to 599, got '" + status.text()
                                    + "'");
                } else {
                    statuses.add(value);
                }
            }
        }
        Duration backoff = section.duration("backoff", d.backoff());
        Duration maxBackoff = section.duration("maxBackoff", d.maxBackoff());
        if (maxBackoff.compareTo(backoff) < 0) {
            section.invalid(
                    section.has("maxBackoff") ? "maxBackoff" : "backoff",
                    "'maxBackoff' ("
                            + DurationText.format(maxBackoff) + ") must be at least 'backoff' ("
                            + DurationText.format(backoff)
                            + ")");
        }
        RetryPolicy.Builder policy = d.toBuilder()
                .maxAttempts(section.integer("maxAttempts", 1, 100, d.maxAttempts()))
                .retryStatuses(statuses)
                .backoff(backoff)
                .maxBackoff(maxBackoff)
                .budgetPercent(section.integer("budgetPercent", 0, 100, d.budgetPercent()))
                .replayBufferSize((int) section.size("replayBufferSize", 0, Integer.MAX_VALUE, d.replayBufferSize()));
        return section.build(errorsBefore, policy::build, d);
    }

    private static int status(String text) {
        try {
            return Integer.parseInt(text);
        } catch (NumberFormatException e) {
            return -1;
        }
    }

    // The proxy's own factories have the last word on what a rewrite may hold.

    private static boolean isPrefix(String prefix) {
        try {
            PathRewrite.stripPrefix(prefix);
            return true;
        } catch (IllegalArgumentException e) {
            return false;
        }
    }

    private static boolean isPath(String path) {
        try {
            PathRewrite.replacePrefix("/", path);
            return true;
        } catch (IllegalArgumentException e) {
            return false;
        }
    }

    private static boolean isTemplate(String template) {
        try {
            PathRewrite.template(template);
            return true;
        } catch (IllegalArgumentException e) {
            return false;
        }
    }

    static boolean isHost(String host) {
        try {
            HostRewrite.fixed(host);
            return true;
        } catch (IllegalArgumentException e) {
            return false;
        }
    }
}
