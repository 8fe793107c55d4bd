package io.parry.gateway.internal.config;

import io.parry.proxy.ForwardingOptions;
import io.parry.server.RequestLimits;
import io.parry.server.ServerOptions;
import io.parry.server.ServerTimeouts;
import java.nio.file.InvalidPathException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.stream.Collectors;
import java.util.stream.Stream;

/**
 * Reads the top level of a configuration tree: listeners, server limits and timeouts, forwarding,
 * access log, metrics and tracing, then upstreams and routes.
 */
final class GatewayConfigReader {
    static final List<String> KEYS = List.of(
            "version",
            "listener",
            "redirectListener",
            "admin",
            "limits",
            "timeouts",
            "forwarding",
            "accessLog",
            "metrics",
            "tracing",
            "upstreams",
            "defaults",
            "routes",
            "redis",
            OverloadReader.KEY);
    /** What {@code defaults} may hold: protection and a rate limit, each applying to every route without its own. */
    static final List<String> DEFAULTS_KEYS = Stream.concat(ProtectionReader.KEYS.stream(), Stream.of("rateLimit"))
            .collect(Collectors.toUnmodifiableList());

    static final List<String> LISTENER_KEYS = List.of("host", "port", PathNormalizationReader.KEY, TlsReader.KEY);
    static final List<String> REDIRECT_KEYS = List.of("host", "port");
    static final List<String> ADMIN_KEYS = List.of("host", "port", "token");
    static final List<String> LIMITS_KEYS = List.of("maxBodySize", "maxHeaderSize", "maxConnections");
    static final List<String> TIMEOUTS_KEYS = List.of("headerRead", "idle", "request", "write");
    static final List<String> FORWARDING_KEYS =
            List.of("trustedProxies", "via", "xForwarded", "forwarded", "clientCertificate");
    private static final int DEFAULT_PORT = 8080;
    private static final int DEFAULT_ADMIN_PORT = 9901;

    private final ConfigErrors errors;
    private final Map<String, String> env;
    /** Whether to load the certificate files the text names, which text parsed without its file does not. */
    private final boolean loadFiles;

    GatewayConfigReader(ConfigErrors errors, Map<String, String> env, boolean loadFiles) {
        this.errors = errors;
        this.env = env;
        this.loadFiles = loadFiles;
    }

    /** The configuration, or {@code null} if the root is not a mapping; check {@code errors} before using it. */
    GatewayConfig read(YamlNode root) {
        if (!(root instanceof YamlMap)) {
            errors.add(
                    root.location(),
                    "the file must be a mapping with keys " + String.join(", ", KEYS) + ", got " + root.describe());
            return null;
        }
        Section top = Section.of(root, "", "the file", errors, KEYS);
        ServerOptions.Builder listener = listener(top, "listener", LISTENER_KEYS, "0.0.0.0", "PORT", DEFAULT_PORT);
        ServerOptions admin = listener(top, "admin", ADMIN_KEYS, "127.0.0.1", "ADMIN_PORT", DEFAULT_ADMIN_PORT)
                .build();
        int port = listener.build().port();
        if (port != 0 && port == admin.port()) {
            errors.add(
                    top.keyLocation("admin"),
                    "the admin listener's port " + admin.port()
                            + " is also the listener's (expected two different ports)");
        }
        ServerOptions redirect = redirectListener(top, listener.build(), admin);
        Map<String, UpstreamConfig> upstreams = upstreams(top);
        String version = top.string("version", "");
        listener.limits(limits(top)).timeouts(timeouts(top));
        ForwardingOptions forwarding = forwarding(top);
        AccessLogKind accessLog = ObservabilityReader.accessLog(top);
        MetricsConfig metrics = ObservabilityReader.metrics(top);
        listener.tracing(top.bool("tracing", ServerOptions.ofDefault().tracing()));
        ProtectionReader protection = new ProtectionReader(forwarding.trustedProxies(), baseDirectory());
        RedisConfig redis = RateLimitReader.redis(top);
        RouteDefaults defaults = defaults(top, protection, redis);
        return new GatewayConfig(
                version,
                listener.build(),
                redirect,
                admin,
                forwarding,
                accessLog,
                metrics,
                upstreams,
                routes(top, upstreams, protection, defaults),
                adminToken(top, admin),
                redis,
                OverloadReader.read(top));
    }

    /** The file's {@code defaults}: what protects and limits every route that does not say otherwise. */
    private static RouteDefaults defaults(Section top, ProtectionReader protection, RedisConfig redis) {
        Section section = top.section("defaults", "'defaults'", DEFAULTS_KEYS);
        if (section == null) {
            return new RouteDefaults(RouteProtection.NONE, null, redis);
        }
        return new RouteDefaults(
                protection.read(section, RouteProtection.NONE),
                RateLimitReader.read(section, "'defaults'", null, redis),
                redis);
    }

    /**
     * The admin API's token; required when the admin listener is bound to anything but loopback, since
     * the admin API can reload the configuration and shows the upstreams.
     */
    private String adminToken(Section top, ServerOptions admin) {
        YamlEntry entry = top.node("admin") instanceof YamlMap map ? map.entry("token") : null;
        String token = null;
        if (entry != null && entry.value() instanceof YamlScalar scalar && !scalar.isNull()) {
            token = scalar.text();
            if (token.length() < 16 || hasSpaceOrControl(token)) {
                errors.add(
                        scalar.location(),
                        "'token' must be at least 16 characters without spaces (expected: a"
                                + " random secret such as the output of openssl rand -hex 16)");
                return null;
            }
        } else if (entry != null) {
            errors.add(
                    entry.value().location(),
                    "'token' must be a string, got " + entry.value().describe());
            return null;
        }
        if (token == null && !isLoopback(admin.host())) {
            errors.add(
                    top.keyLocation("admin"),
                    "the admin listener on " + admin.host() + " is not on loopback, so 'admin' needs a 'token'"
                            + " (expected: token: ${ADMIN_TOKEN}, or host: 127.0.0.1)");
        }
        return token;
    }

    private static boolean isLoopback(String host) {
        return host.equals("localhost") || host.equals("::1") || host.equals("[::1]") || host.startsWith("127.");
    }

    /** Where relative paths in the file start: the file's directory, or the working directory. */
    private Path baseDirectory() {
        try {
            Path parent = Path.of(errors.file()).toAbsolutePath().getParent();
            return parent != null ? parent : Path.of("").toAbsolutePath();
        } catch (InvalidPathException e) {
            return Path.of("").toAbsolutePath();
        }
    }

    /** A listener's address and path normalisation (the admin's keys have none), the rest of its options the defaults. */
    private ServerOptions.Builder listener(
            Section top, String key, List<String> keys, String defaultHost, String portVariable, int defaultPort) {
        int port = defaultPort(top, key, portVariable, defaultPort);
        ServerOptions.Builder listener =
                ServerOptions.builder().host(defaultHost).port(port);
        Section section = top.section(key, "'" + key + "'", keys);
        if (section == null) {
            return listener;
        }
        String host = section.string("host", defaultHost);
        if (host.isBlank() || hasSpaceOrControl(host)) {
            section.invalid("host", "'host' must be a host name or address such as 0.0.0.0, got '" + host + "'");
        }
        listener.host(host).port(section.integer("port", 0, 65535, port));
        if (keys.contains(PathNormalizationReader.KEY)) {
            listener.pathNormalization(PathNormalizationReader.read(section)).tls(TlsReader.read(section, loadFiles));
        }
        return listener;
    }

    /**
     * The optional cleartext listener that redirects every request to the HTTPS listener: only with
     * {@code listener.tls}, and on a port of its own.
     */
    private ServerOptions redirectListener(Section top, ServerOptions listener, ServerOptions admin) {
        if (!top.has("redirectListener")) {
            return null;
        }
        ServerOptions redirect = listener(top, "redirectListener", REDIRECT_KEYS, "0.0.0.0", "REDIRECT_PORT", 80)
                .build();
        if (listener.tls().isEmpty()) {
            errors.add(
                    top.keyLocation("redirectListener"),
                    "'redirectListener' redirects to HTTPS, but 'listener' has no 'tls' (expected listener.tls)");
        } else if (redirect.port() != 0 && (redirect.port() == listener.port() || redirect.port() == admin.port())) {
            errors.add(
                    top.keyLocation("redirectListener"),
                    "the redirect listener's port " + redirect.port()
                            + " is also another listener's (expected a port of its own)");
        }
        return redirect;
    }

    /** A port the file does not give comes from the environment when it is set there, so {@code PORT=9000} works without a file change. */
    private int defaultPort(Section top, String key, String variable, int defaultPort) {
        String value = env.get(variable);
        if (value == null) {
            return defaultPort;
        }
        try {
            int port = Integer.parseInt(value.trim());
            if (port >= 0 && port <= 65535) {
                return port;
            }
        } catch (NumberFormatException e) {
            // Reported below.
        }
        boolean portInFile = top.node(key) instanceof YamlMap && ((YamlMap) top.node(key)).entry("port") != null;
        if (!portInFile) {
            errors.add(
                    top.keyLocation(key),
                    "environment variable " + variable + " is '" + value + "' (expected a port from 0 to 65535 for the "
                            + key + ")");
        }
        return defaultPort;
    }

    /** The gateway server's request limits; what the file cannot set keeps the {@link RequestLimits} default. */
    private RequestLimits limits(Section top) {
        Section section = top.section("limits", "'limits'", LIMITS_KEYS);
        RequestLimits d = RequestLimits.ofDefault();
        if (section == null) {
            return d;
        }
        int errorsBefore = errors.count();
        RequestLimits.Builder limits = d.toBuilder()
                .maxBodySize(section.size("maxBodySize", 1, Long.MAX_VALUE, d.maxBodySize()))
                .maxHeaderSize((int) section.size("maxHeaderSize", 1, Integer.MAX_VALUE, d.maxHeaderSize()))
                .maxConnections(section.integer("maxConnections", 1, Integer.MAX_VALUE, d.maxConnections()));
        return section.build(errorsBefore, limits::build, d);
    }

    private ServerTimeouts timeouts(Section top) {
        Section section = top.section("timeouts", "'timeouts'", TIMEOUTS_KEYS);
        ServerTimeouts d = ServerTimeouts.ofDefault();
        if (section == null) {
            return d;
        }
        int errorsBefore = errors.count();
        ServerTimeouts.Builder timeouts = d.toBuilder()
                .headerRead(section.duration("headerRead", d.headerRead()))
                .idle(section.duration("idle", d.idle()))
                .request(section.duration("request", d.request()))
                .write(section.duration("write", d.write()));
        return section.build(errorsBefore, timeouts::build, d);
    }

    private ForwardingOptions forwarding(Section top) {
        Section section = top.section("forwarding", "'forwarding'", FORWARDING_KEYS);
        ForwardingOptions d = ForwardingOptions.ofDefault();
        if (section == null) {
            return d;
        }
        int errorsBefore = errors.count();
        List<String> trusted = new ArrayList<>();
        for (YamlScalar scalar : section.scalars("trustedProxies", "an IP address or CIDR block such as 10.0.0.0/8")) {
            String entry = scalar.text();
            trusted.add(entry);
            try {
                ForwardingOptions.builder().trustedProxies(List.of(entry)).build();
            } catch (IllegalArgumentException e) {
                errors.add(
                        scalar.location(),
                        "'" + entry + "' in 'trustedProxies' is not an IP address or CIDR block "
                                + expectation(e.getMessage()));
            }
        }
        String via = section.string("via", d.via());
        try {
            ForwardingOptions.builder().via(via).build();
        } catch (IllegalArgumentException e) {
            section.invalid("via", "'via' must be a token such as parry, or empty to send no Via, got '" + via + "'");
        }
        ForwardingOptions.Builder forwarding = d.toBuilder()
                .trustedProxies(trusted)
                .via(via)
                .xForwarded(section.bool("xForwarded", d.xForwarded()))
                .forwarded(section.bool("forwarded", d.forwarded()))
                .clientCertificate(section.bool("clientCertificate", d.clientCertificate()));
        return section.build(errorsBefore, forwarding::build, d);
    }

    private Map<String, UpstreamConfig> upstreams(Section top) {
        Map<String, UpstreamConfig> upstreams = new LinkedHashMap<>();
        YamlNode node = top.node("upstreams");
        if (node == null) {
            return upstreams;
        }
        if (!(node instanceof YamlMap)) {
            top.wrongType("upstreams", "a mapping of upstream names to upstream groups", node);
            return upstreams;
        }
        UpstreamReader reader = new UpstreamReader(errors);
        for (YamlEntry entry : ((YamlMap) node).entries()) {
            upstreams.put(entry.key(), reader.read(entry));
        }
        return upstreams;
    }

    private List<RouteConfig> routes(
            Section top, Map<String, UpstreamConfig> upstreams, ProtectionReader protection, RouteDefaults defaults) {
        YamlList list = top.list("routes", "a list of routes");
        if (list == null) {
            return List.of();
        }
        RouteReader reader = new RouteReader(errors, upstreams.keySet(), protection, defaults);
        List<RouteConfig> routes = new ArrayList<>(list.items().size());
        for (int i = 0; i < list.items().size(); i++) {
            routes.add(reader.read(list.items().get(i), i + 1));
        }
        return routes;
    }

    static boolean hasSpaceOrControl(String text) {
        for (int i = 0; i < text.length(); i++) {
            if (text.charAt(i) <= ' ' || text.charAt(i) == 0x7f) {
                return true;
            }
        }
        return false;
    }

    /** The {@code (expected: ...)} part of an option builder's message, or a generic one. */
    private static String expectation(String message) {
        int at = message == null ? -1 : message.indexOf("(expected");
        return at < 0 ? "(expected: an address such as 10.0.0.7 or a block such as 10.0.0.0/8)" : message.substring(at);
    }
}
