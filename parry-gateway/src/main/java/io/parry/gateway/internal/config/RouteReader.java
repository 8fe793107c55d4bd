package io.parry.gateway.internal.config;

import java.util.Collection;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/** Reads the routes one at a time: a unique name, a match, and exactly one action. */
final class RouteReader {
    static final List<String> KEYS = List.of(
            "name",
            "match",
            "proxy",
            "respond",
            "redirect",
            "ipRules",
            "cors",
            "auth",
            "securityHeaders",
            "rateLimit",
            "compression",
            "priority");
    private static final List<String> ACTIONS = List.of("proxy", "respond", "redirect");
    static final List<String> RESPOND_KEYS = List.of("status", "body", "contentType", "headers");
    static final List<String> REDIRECT_KEYS = List.of("location", "status", "keepPath");
    static final List<Integer> REDIRECT_STATUSES = List.of(301, 302, 303, 307, 308);
    private static final String DEFAULT_CONTENT_TYPE = "text/plain; charset=utf-8";

    private final ConfigErrors errors;
    private final ProxyActionReader proxies;
    private final Map<String, Location> names = new HashMap<>();
    private final RouteDefaults defaults;

    private final ProtectionReader protection;

    RouteReader(
            ConfigErrors errors, Collection<String> upstreams, ProtectionReader protection, RouteDefaults defaults) {
        this.errors = errors;
        this.proxies = new ProxyActionReader(upstreams);
        this.protection = protection;
        this.defaults = defaults;
    }

    /** The route at this 1-based position; parts that are wrong are {@code null} after their errors. */
    RouteConfig read(YamlNode node, int position) {
        String defaultName = "route-" + position;
        if (!(node instanceof YamlMap)) {
            errors.add(
                    node.location(),
                    "each entry of 'routes' must be a mapping with keys " + String.join(", ", KEYS) + ", got "
                            + node.describe());
            return new RouteConfig(defaultName, null, null);
        }
        String name = declaredName((YamlMap) node, defaultName);
        Section section = Section.of(node, "routes", "route '" + name + "'", errors, KEYS);
        checkName(section, name);
        MatchConfig match = MatchReader.read(section);
        RouteAction action = action(section, match);
        RouteProtection routeProtection = protection.read(section, defaults.protection());
        RateLimitConfig rateLimit =
                RateLimitReader.read(section, "route '" + name + "'", defaults.rateLimit(), defaults.redis());
        checkClaimKey(section, routeProtection, rateLimit);
        checkCredentialKey(section, routeProtection, rateLimit);
        return new RouteConfig(name, match, action, routeProtection, rateLimit, OverloadReader.priority(section));
    }

    /** A limit keyed by a claim needs the authentication that verifies the claim before the limit runs. */
    private static void checkClaimKey(Section section, RouteProtection protection, RateLimitConfig rateLimit) {
        if (rateLimit == null || (protection != null && protection.auth() != null)) {
            return;
        }
        for (String part : rateLimit.key()) {
            if (part.startsWith(RateLimitReader.CLAIM)) {
                section.error(
                        section.has("rateLimit") ? section.keyLocation("rateLimit") : section.location(),
                        section.context() + " has a rate limit keyed by '" + part
                                + "' but no 'auth' to verify it (expected auth, here or under defaults)");
                return;
            }
        }
    }

    /**
     * A limit keyed by the field that carries the credentials sees no such field: authentication
     * removes it before the limit runs, so every client would share one bucket. The verified name
     * ({@code claim:sub}) is the key meant.
     */
    private static void checkCredentialKey(Section section, RouteProtection protection, RateLimitConfig rateLimit) {
        if (rateLimit == null || protection == null) {
            return;
        }
        String removed = protection.auth() instanceof AuthConfig.ApiKey apiKey
                ? apiKey.header()
                : protection.auth() instanceof AuthConfig.Basic ? "authorization" : null;
        for (String part : rateLimit.key()) {
            if (removed != null && part.equalsIgnoreCase(RateLimitReader.HEADER + removed)) {
                section.error(
                        section.has("rateLimit") ? section.keyLocation("rateLimit") : section.location(),
                        section.context() + " has a rate limit keyed by '" + part
                                + "', which its 'auth' removes before the limit runs, so every client would share"
                                + " one bucket (expected 'claim:sub', the name of the verified credentials)");
                return;
            }
        }
    }

    /** The name the route gives itself, so that every message about it can use it, or the default. */
    private static String declaredName(YamlMap route, String defaultName) {
        YamlEntry entry = route.entry("name");
        if (entry != null && entry.value() instanceof YamlScalar) {
            String text = ((YamlScalar) entry.value()).text();
            return text == null || text.isBlank() ? defaultName : text;
        }
        return defaultName;
    }

    private void checkName(Section section, String name) {
        String declared = section.text("name", "a string");
        if (declared != null && declared.isBlank()) {
            section.invalid("name", "'name' must not be blank (leave it out for the default " + name + ")");
        }
        Location at = section.keyLocation("name");
        Location first = names.putIfAbsent(name, at);
        if (first != null) {
            section.error(at, "duplicate route name '" + name + "' (first used at line " + first.line() + ")");
        }
    }

    private RouteAction action(Section section, MatchConfig match) {
        String action = null;
        for (String key : ACTIONS) {
            if (!section.has(key)) {
                continue;
            }
            if (action != null) {
                section.error(
                        section.keyLocation(key),
                        section.context() + " has both '" + action + "' and '" + key
                                + "' (expected exactly one of proxy, respond, redirect)");
                return null;
            }
            action = key;
        }
        if (action == null) {
            section.error(
                    section.location(),
                    section.context() + " has no action (expected exactly one of proxy, respond, redirect)");
            return null;
        }
        switch (action) {
            case "proxy":
                return proxies.read(section, match);
            case "respond":
                return respond(section);
            default:
                return redirect(section);
        }
    }

    private static RespondAction respond(Section route) {
        Section section = route.section("respond", route.context() + " respond", RESPOND_KEYS);
        if (section == null) {
            return null;
        }
        String contentType = section.string("contentType", DEFAULT_CONTENT_TYPE);
        if (!HeaderSyntax.isValue(contentType) || contentType.indexOf('/') < 0) {
            section.invalid(
                    "contentType",
                    "'contentType' must be a media type such as text/plain; charset=utf-8, got '" + contentType + "'");
        }
        HeaderSyntax.check(section, "headers");
        return new RespondAction(
                section.integer("status", 200, 599, 200),
                section.string("body", ""),
                contentType,
                section.stringMap("headers", "a header value"));
    }

    private static RedirectAction redirect(Section route) {
        Section section = route.section("redirect", route.context() + " redirect", REDIRECT_KEYS);
        if (section == null) {
            return null;
        }
        String location = section.requiredString("location", "the URI or path to redirect to, such as /new");
        if (location != null && (location.isEmpty() || GatewayConfigReader.hasSpaceOrControl(location))) {
            section.invalid(
                    "location",
                    "'location' must be a URI or path without spaces or control characters, got '" + location + "'");
        }
        int status = 302;
        String text = section.text("status", "one of 301, 302, 303, 307 or 308");
        if (text != null) {
            try {
                status = Integer.parseInt(text);
            } catch (NumberFormatException e) {
                status = -1;
            }
            if (!REDIRECT_STATUSES.contains(status)) {
                section.invalid("status", "'status' must be one of 301, 302, 303, 307 or 308, got '" + text + "'");
                status = 302;
            }
        }
        return new RedirectAction(location, status, section.bool("keepPath", false));
    }
}
