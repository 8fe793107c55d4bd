package io.parry.gateway.internal.config;

import io.netty.util.NetUtil;
import io.parry.client.Endpoint;
import io.parry.client.upstream.Balancing;
import io.parry.client.upstream.HealthCheck;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/** Reads one upstream group: its endpoints, balancing, health check, outlier detection, breaker, bulkhead, pool and timeouts. */
final class UpstreamReader {
    private static final List<String> KEYS = List.of(
            "endpoints",
            "balancing",
            "healthCheck",
            "outlierDetection",
            "breaker",
            "maxConcurrent",
            "pool",
            "timeouts",
            "nameServers");
    private static final List<String> ENDPOINT_KEYS = List.of("address", "weight");
    private static final List<String> HEALTH_CHECK_KEYS =
            List.of("path", "interval", "timeout", "healthyThreshold", "unhealthyThreshold");
    private static final List<String> OUTLIER_KEYS =
            List.of("consecutiveFailures", "ejectionTime", "maxEjectionTime", "maxEjectionPercent");
    private static final List<String> BREAKER_KEYS =
            List.of("failureRateThreshold", "slidingWindowSize", "minimumCalls", "openDuration", "halfOpenCalls");
    private static final List<String> POOL_KEYS = List.of(
            "maxConnections", "maxPending", "idleTimeout", "maxLifetime", "abandonedDrain", "abandonedDrainTime");
    static final List<String> TIMEOUT_KEYS = List.of("connect", "responseHeaders", "bodyIdle", "call");
    private static final List<String> BALANCING_NAMES =
            List.of("round_robin", "weighted_round_robin", "least_outstanding", "power_of_two_choices");
    private static final String NAME_SERVER = "an IP address with an optional port, such as 10.0.0.2 or 10.0.0.2:53";
    private static final String ADDRESS = "an address such as 127.0.0.1:9000 or http://api.internal:8080";

    private final ConfigErrors errors;

    UpstreamReader(ConfigErrors errors) {
        this.errors = errors;
    }

    UpstreamConfig read(YamlEntry entry) {
        String name = entry.key();
        if (!isName(name)) {
            errors.add(
                    entry.keyLocation(),
                    "upstream name '" + name + "' must be made of letters, digits, '.', '_' and '-'");
        }
        String context = "upstream '" + name + "'";
        Section section = Section.of(entry.value(), name, context, errors, KEYS);
        if (section == null) {
            return new UpstreamConfig(
                    name,
                    List.of(),
                    Balancing.ROUND_ROBIN,
                    null,
                    OutlierDetectionConfig.DEFAULT,
                    BreakerConfig.DEFAULT,
                    0,
                    PoolConfig.DEFAULT,
                    ClientTimeoutsConfig.DEFAULT,
                    List.of());
        }
        int errorsBefore = errors.count();
        UpstreamConfig upstream = new UpstreamConfig(
                name,
                endpoints(section),
                balancing(section),
                healthCheck(section),
                outlierDetection(section),
                breaker(section),
                section.integer("maxConcurrent", 0, Integer.MAX_VALUE, 0),
                pool(section),
                timeouts(section, context + " timeouts", ClientTimeoutsConfig.DEFAULT),
                nameServers(section));
        if (errors.count() == errorsBefore) {
            checkOptions(section, upstream);
        }
        return upstream;
    }

    private List<Endpoint> endpoints(Section section) {
        if (!section.has("endpoints")) {
            section.missing("endpoints", "a list of endpoints, each " + ADDRESS);
            return List.of();
        }
        YamlList list = section.list("endpoints", "a list of endpoints, each " + ADDRESS);
        if (list == null) {
            return List.of();
        }
        if (list.items().isEmpty()) {
            errors.add(
                    list.location(),
                    "'endpoints' of " + section.context() + " is empty (expected at least one, " + ADDRESS + ")");
        }
        List<Endpoint> endpoints = new ArrayList<>();
        for (YamlNode item : list.items()) {
            Endpoint endpoint = endpoint(section, item);
            if (endpoint == null) {
                continue;
            }
            if (listed(endpoints, endpoint)) {
                errors.add(
                        item.location(),
                        "endpoint " + endpoint.authority() + " is listed twice in " + section.context());
            } else {
                endpoints.add(endpoint);
            }
        }
        return endpoints;
    }

    private static boolean listed(List<Endpoint> endpoints, Endpoint endpoint) {
        for (Endpoint listed : endpoints) {
            if (listed.sameAddress(endpoint)) {
                return true;
            }
        }
        return false;
    }

    private Endpoint endpoint(Section upstream, YamlNode item) {
        if (item instanceof YamlScalar && !((YamlScalar) item).isNull()) {
            return address(((YamlScalar) item).text(), item.location());
        }
        if (!(item instanceof YamlMap)) {
            errors.add(
                    item.location(),
                    "each entry of 'endpoints' must be " + ADDRESS + " or a mapping with address and weight, got "
                            + item.describe());
            return null;
        }
        Section section = Section.of(item, "endpoints", "an endpoint of " + upstream.context(), errors, ENDPOINT_KEYS);
        String address = section.requiredString("address", ADDRESS);
        int weight = section.integer("weight", 1, Integer.MAX_VALUE, 1);
        Endpoint endpoint = address == null
                ? null
                : address(address, section.node("address").location());
        return endpoint == null ? null : endpoint.withWeight(weight);
    }

    private Endpoint address(String text, Location at) {
        try {
            return Endpoint.parse(text);
        } catch (IllegalArgumentException e) {
            errors.add(at, "'" + text + "' is not an endpoint address (expected " + ADDRESS + ")");
            return null;
        }
    }

    private List<InetSocketAddress> nameServers(Section section) {
        List<InetSocketAddress> servers = new ArrayList<>();
        for (YamlScalar item : section.scalars("nameServers", NAME_SERVER)) {
            InetSocketAddress server = nameServer(item.text());
            if (server == null) {
                errors.add(
                        item.location(),
                        "'" + item.text() + "' is not a name server address (expected " + NAME_SERVER + ")");
            } else {
                servers.add(server);
            }
        }
        return servers;
    }

    /** The IP address and port (53 when none is given) of the text, or null; names are not resolved. */
    private static InetSocketAddress nameServer(String text) {
        Endpoint endpoint;
        try {
            endpoint = Endpoint.parse(withPort(text));
        } catch (IllegalArgumentException e) {
            return null;
        }
        InetAddress address = NetUtil.createInetAddressFromIpAddressString(endpoint.host());
        return address == null ? null : new InetSocketAddress(address, endpoint.port());
    }

    private static String withPort(String text) {
        if (text.startsWith("[")) {
            return text.contains("]:") ? text : text + ":53";
        }
        int colon = text.indexOf(':');
        if (colon < 0) {
            return text + ":53";
        }
        return colon == text.lastIndexOf(':') ? text : "[" + text + "]:53"; // a bare IPv6 address
    }

    private Balancing balancing(Section section) {
        String text = section.text("balancing", "one of " + String.join(", ", BALANCING_NAMES));
        if (text == null) {
            return Balancing.ROUND_ROBIN;
        }
        if (BALANCING_NAMES.contains(text)) {
            return Balancing.valueOf(text.toUpperCase(Locale.ROOT));
        }
        String closest = ClosestName.of(text, BALANCING_NAMES);
        section.invalid(
                "balancing",
                "'balancing' must be one of " + String.join(", ", BALANCING_NAMES) + ", got '" + text + "'"
                        + (closest == null ? "" : ", did you mean '" + closest + "'?"));
        return Balancing.ROUND_ROBIN;
    }

    private HealthCheckConfig healthCheck(Section upstream) {
        if (upstream.isOff("healthCheck")) {
            return null;
        }
        Section section = upstream.section("healthCheck", upstream.context() + " healthCheck", HEALTH_CHECK_KEYS);
        if (section == null) {
            return null;
        }
        String path = section.requiredString("path", "the path to request, such as /health");
        if (path != null && !isHealthPath(path)) {
            section.invalid("path", "'path' must be an origin-form path such as /health, got '" + path + "'");
        }
        HealthCheck d = HealthCheck.builder("/").build();
        return new HealthCheckConfig(
                path == null ? "/" : path,
                section.positiveDuration("interval", d.interval()),
                section.positiveDuration("timeout", d.timeout()),
                section.integer("healthyThreshold", 1, Integer.MAX_VALUE, d.healthyThreshold()),
                section.integer("unhealthyThreshold", 1, Integer.MAX_VALUE, d.unhealthyThreshold()));
    }

    private OutlierDetectionConfig outlierDetection(Section upstream) {
        if (upstream.isOff("outlierDetection")) {
            return OutlierDetectionConfig.OFF;
        }
        Section section = upstream.section("outlierDetection", upstream.context() + " outlierDetection", OUTLIER_KEYS);
        if (section == null) {
            return OutlierDetectionConfig.DEFAULT;
        }
        OutlierDetectionConfig d = OutlierDetectionConfig.DEFAULT;
        Duration ejectionTime = section.positiveDuration("ejectionTime", d.ejectionTime());
        Duration maxEjectionTime = section.positiveDuration("maxEjectionTime", d.maxEjectionTime());
        if (maxEjectionTime.compareTo(ejectionTime) < 0) {
            section.invalid(
                    "maxEjectionTime",
                    "'maxEjectionTime' (" + DurationText.format(maxEjectionTime) + ") must be at least 'ejectionTime' ("
                            + DurationText.format(ejectionTime) + ")");
        }
        return new OutlierDetectionConfig(
                true,
                section.integer("consecutiveFailures", 1, Integer.MAX_VALUE, d.consecutiveFailures()),
                ejectionTime,
                maxEjectionTime,
                section.integer("maxEjectionPercent", 0, 100, d.maxEjectionPercent()));
    }

    private BreakerConfig breaker(Section upstream) {
        if (upstream.isOff("breaker")) {
            return BreakerConfig.OFF;
        }
        Section section = upstream.section("breaker", upstream.context() + " breaker", BREAKER_KEYS);
        if (section == null) {
            return BreakerConfig.DEFAULT;
        }
        BreakerConfig d = BreakerConfig.DEFAULT;
        return new BreakerConfig(
                true,
                section.integer("failureRateThreshold", 1, 100, d.failureRateThreshold()),
                section.integer("slidingWindowSize", 1, Integer.MAX_VALUE, d.slidingWindowSize()),
                section.integer("minimumCalls", 1, Integer.MAX_VALUE, d.minimumCalls()),
                section.positiveDuration("openDuration", d.openDuration()),
                section.integer("halfOpenCalls", 1, Integer.MAX_VALUE, d.halfOpenCalls()));
    }

    private PoolConfig pool(Section upstream) {
        Section section = upstream.section("pool", upstream.context() + " pool", POOL_KEYS);
        if (section == null) {
            return PoolConfig.DEFAULT;
        }
        PoolConfig d = PoolConfig.DEFAULT;
        return new PoolConfig(
                section.integer("maxConnections", 1, Integer.MAX_VALUE, d.maxConnections()),
                section.integer("maxPending", 0, Integer.MAX_VALUE, d.maxPending()),
                section.duration("idleTimeout", d.idleTimeout()),
                section.duration("maxLifetime", d.maxLifetime()),
                (int) section.size("abandonedDrain", 0, Integer.MAX_VALUE, d.abandonedDrain()),
                section.duration("abandonedDrainTime", d.abandonedDrainTime()));
    }

    /** Upstream call timeouts under {@code timeouts}, each field not given taken from {@code defaults} (which may hold nulls). */
    static ClientTimeoutsConfig timeouts(Section parent, String context, ClientTimeoutsConfig defaults) {
        Section section = parent.section("timeouts", context, TIMEOUT_KEYS);
        if (section == null) {
            return defaults;
        }
        return new ClientTimeoutsConfig(
                section.duration("connect", defaults.connect()),
                section.duration("responseHeaders", defaults.responseHeaders()),
                section.duration("bodyIdle", defaults.bodyIdle()),
                section.duration("call", defaults.call()));
    }

    /** The option builders have the last word; a rule they add later still fails at load, not at the first request. */
    private void checkOptions(Section section, UpstreamConfig upstream) {
        try {
            if (upstream.healthCheck() != null) {
                upstream.healthCheck().toOptions();
            }
            upstream.outlierDetection().toOptions();
            upstream.breaker().toOptions();
            upstream.pool().toOptions();
            upstream.timeouts().toOptions();
        } catch (IllegalArgumentException e) {
            errors.add(section.location(), section.context() + " is invalid: " + e.getMessage());
        }
    }

    private static boolean isHealthPath(String path) {
        try {
            HealthCheck.builder(path).build();
            return true;
        } catch (IllegalArgumentException e) {
            return false;
        }
    }

    private static boolean isName(String name) {
        if (name.isEmpty()) {
            return false;
        }
        for (int i = 0; i < name.length(); i++) {
            char c = name.charAt(i);
            boolean ok = (c >= 'a' && c <= 'z')
                    || (c >= 'A' && c <= 'Z')
                    || (c >= '0' && c <= '9')
                    || c == '.'
                    || c == '_'
                    || c == '-';
            if (!ok) {
                return false;
            }
        }
        return true;
    }
}
