package io.parry.gateway.internal.config;

import io.netty.util.NetUtil;
import io.parry.client.ClientOptions;
import io.parry.client.ClientProtocol;
import io.parry.client.ClientTimeouts;
import io.parry.client.ClientTlsOptions;
import io.parry.client.Endpoint;
import io.parry.client.PoolOptions;
import io.parry.client.upstream.Balancing;
import io.parry.client.upstream.HealthCheck;
import io.parry.client.upstream.OutlierDetection;
import io.parry.proxy.AdaptiveConcurrencyOptions;
import io.parry.proxy.BreakerOptions;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.nio.file.Files;
import java.nio.file.InvalidPathException;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/**
 * Reads one upstream group: its endpoints, balancing, health check, outlier detection, breaker,
 * bulkhead, pool, timeouts, protocol and TLS. With {@code tls}, every endpoint speaks TLS; an {@code
 * https://} endpoint does either way, with the default TLS options.
 */
final class UpstreamReader {
    static final List<String> KEYS = List.of(
            "endpoints",
            "balancing",
            "healthCheck",
            "outlierDetection",
            "breaker",
            "maxConcurrent",
            "adaptiveConcurrency",
            "pool",
            "timeouts",
            "nameServers",
            "protocol",
            "tls");
    static final List<String> TLS_KEYS = List.of("ca", "verify", "sniName", "clientCertificate");
    static final List<String> CLIENT_CERTIFICATE_KEYS = List.of("chain", "key");
    static final List<String> PROTOCOL_NAMES = List.of("http1", "h2", "h2c");
    static final List<String> ENDPOINT_KEYS = List.of("address", "weight");
    static final List<String> HEALTH_CHECK_KEYS =
            List.of("path", "interval", "timeout", "healthyThreshold", "unhealthyThreshold");
    static final List<String> OUTLIER_KEYS =
            List.of("consecutiveFailures", "ejectionTime", "maxEjectionTime", "maxEjectionPercent");
    static final List<String> BREAKER_KEYS =
            List.of("failureRateThreshold", "slidingWindowSize", "minimumCalls", "openDuration", "halfOpenCalls");
    static final List<String> ADAPTIVE_KEYS = List.of(
            "initialLimit",
            "minLimit",
            "maxLimit",
            "rttTolerance",
            "smoothing",
            "queueSize",
            "window",
            "longWindow",
            "backoffRatio",
            "probeInterval",
            "probeJitter");
    static final List<String> POOL_KEYS = List.of(
            "maxConnections",
            "maxPending",
            "idleTimeout",
            "maxLifetime",
            "abandonedDrain",
            "abandonedDrainTime",
            "pingInterval");
    static final List<String> TIMEOUT_KEYS = List.of("connect", "responseHeaders", "bodyIdle", "call");
    static final List<String> BALANCING_NAMES =
            List.of("round_robin", "weighted_round_robin", "least_outstanding", "power_of_two_choices");
    private static final String NAME_SERVER = "an IP address with an optional port, such as 10.0.0.2 or 10.0.0.2:53";
    private static final String ADDRESS =
            "an address such as 127.0.0.1:9000, http://api.internal:8080 or https://api.internal:8443";

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
                    OutlierDetection.ofDefault(),
                    BreakerOptions.ofDefault(),
                    0,
                    null,
                    ClientOptions.ofDefault());
        }
        int errorsBefore = errors.count();
        ClientTlsOptions tls = tls(section, errorsBefore);
        List<Endpoint> endpoints = tls == null ? endpoints(section) : secure(endpoints(section));
        Balancing balancing = balancing(section);
        HealthCheck healthCheck = healthCheck(section, errorsBefore);
        OutlierDetection outlierDetection = outlierDetection(section, errorsBefore);
        BreakerOptions breaker = breaker(section, errorsBefore);
        int maxConcurrent = section.integer("maxConcurrent", 0, Integer.MAX_VALUE, 0);
        AdaptiveConcurrencyOptions adaptive = adaptiveConcurrency(section, errorsBefore);
        return new UpstreamConfig(
                name,
                endpoints,
                balancing,
                healthCheck,
                outlierDetection,
                breaker,
                maxConcurrent,
                adaptive,
                client(section, errorsBefore, tls));
    }

    private static List<Endpoint> secure(List<Endpoint> endpoints) {
        List<Endpoint> secure = new ArrayList<>(endpoints.size());
        for (Endpoint endpoint : endpoints) {
            secure.add(endpoint.withSecure(true));
        }
        return secure;
    }

    private ClientProtocol protocol(Section section) {
        String text = section.text("protocol", "one of " + String.join(", ", PROTOCOL_NAMES));
        if (text == null) {
            return ClientProtocol.HTTP1;
        }
        if (PROTOCOL_NAMES.contains(text)) {
            return ClientProtocol.valueOf(text.toUpperCase(Locale.ROOT));
        }
        String closest = ClosestName.of(text, PROTOCOL_NAMES);
        section.invalid(
                "protocol",
                "'protocol' must be one of " + String.join(", ", PROTOCOL_NAMES) + ", got '" + text + "'"
                        + (closest == null ? "" : ", did you mean '" + closest + "'?"));
        return ClientProtocol.HTTP1;
    }

    /** TLS to the group's endpoints: {@code null} without {@code tls} (or with {@code tls: off}). */
    private ClientTlsOptions tls(Section upstream, int errorsBefore) {
        if (!upstream.has("tls") || upstream.isOff("tls")) {
            return null;
        }
        if (upstream.node("tls") instanceof YamlScalar scalar && !scalar.isNull()) {
            if (scalar.text().equalsIgnoreCase("on") || scalar.text().equalsIgnoreCase("true")) {
                return ClientTlsOptions.ofDefault();
            }
        }
        Section section = upstream.section("tls", upstream.context() + " tls", TLS_KEYS);
        if (section == null) {
            return ClientTlsOptions.ofDefault();
        }
        ClientTlsOptions.Builder builder = ClientTlsOptions.builder().verify(section.bool("verify", true));
        Path ca = file(section, "ca");
        if (ca != null) {
            builder.caBundle(ca);
        }
        String sniName = section.text("sniName", "a host name");
        if (sniName != null) {
            builder.sniName(sniName);
        }
        Section certificate =
                section.section("clientCertificate", section.context() + " clientCertificate", CLIENT_CERTIFICATE_KEYS);
        if (certificate != null) {
            if (!certificate.has("chain")) {
                certificate.missing("chain", "the PEM file of the certificate chain");
            }
            if (!certificate.has("key")) {
                certificate.missing("key", "the PEM file of its PKCS#8 private key");
            }
            Path chain = file(certificate, "chain");
            Path key = file(certificate, "key");
            if (chain != null && key != null) {
                builder.clientCertificate(chain, key);
            }
        }
        return upstream.build(errorsBefore, builder::build, ClientTlsOptions.ofDefault());
    }

    /** A readable file named under the key, or {@code null} after an error. */
    private static Path file(Section section, String key) {
        String text = section.text(key, "the path of a PEM file");
        if (text == null) {
            return null;
        }
        try {
            Path file = Path.of(text);
            if (Files.isReadable(file)) {
                return file;
            }
        } catch (InvalidPathException e) {
            // Reported below.
        }
        section.invalid(key, "'" + key + "' of " + section.context() + " names no readable file: '" + text + "'");
        return null;
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

    private HealthCheck healthCheck(Section upstream, int errorsBefore) {
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
        HealthCheck.Builder builder = HealthCheck.builder(path == null || !isHealthPath(path) ? "/" : path);
        HealthCheck d = builder.build();
        builder.interval(section.positiveDuration("interval", d.interval()))
                .timeout(section.positiveDuration("timeout", d.timeout()))
                .healthyThreshold(section.integer("healthyThreshold", 1, Integer.MAX_VALUE, d.healthyThreshold()))
                .unhealthyThreshold(
                        section.integer("unhealthyThreshold", 1, Integer.MAX_VALUE, d.unhealthyThreshold()));
        return upstream.build(errorsBefore, builder::build, d);
    }

    private OutlierDetection outlierDetection(Section upstream, int errorsBefore) {
        if (upstream.isOff("outlierDetection")) {
            return OutlierDetection.disabled();
        }
        Section section = upstream.section("outlierDetection", upstream.context() + " outlierDetection", OUTLIER_KEYS);
        OutlierDetection d = OutlierDetection.ofDefault();
        if (section == null) {
            return d;
        }
        Duration ejectionTime = section.positiveDuration("ejectionTime", d.ejectionTime());
        Duration maxEjectionTime = section.positiveDuration("maxEjectionTime", d.maxEjectionTime());
        if (maxEjectionTime.compareTo(ejectionTime) < 0) {
            section.invalid(
                    "maxEjectionTime",
                    "'maxEjectionTime' (" + DurationText.format(maxEjectionTime) + ") must be at least 'ejectionTime' ("
                            + DurationText.format(ejectionTime) + ")");
        }
        OutlierDetection.Builder builder = OutlierDetection.builder()
                .consecutiveFailures(
                        section.integer("consecutiveFailures", 1, Integer.MAX_VALUE, d.consecutiveFailures()))
                .ejectionTime(ejectionTime)
                .maxEjectionTime(maxEjectionTime)
                .maxEjectionPercent(section.integer("maxEjectionPercent", 0, 100, d.maxEjectionPercent()));
        return upstream.build(errorsBefore, builder::build, d);
    }

    private BreakerOptions breaker(Section upstream, int errorsBefore) {
        if (upstream.isOff("breaker")) {
            return BreakerOptions.disabled();
        }
        Section section = upstream.section("breaker", upstream.context() + " breaker", BREAKER_KEYS);
        BreakerOptions d = BreakerOptions.ofDefault();
        if (section == null) {
            return d;
        }
        BreakerOptions.Builder builder = BreakerOptions.builder()
                .failureRateThreshold(section.integer("failureRateThreshold", 1, 100, d.failureRateThreshold()))
                .slidingWindowSize(section.integer("slidingWindowSize", 1, Integer.MAX_VALUE, d.slidingWindowSize()))
                .minimumCalls(section.integer("minimumCalls", 1, Integer.MAX_VALUE, d.minimumCalls()))
                .openDuration(section.positiveDuration("openDuration", d.openDuration()))
                .halfOpenCalls(section.integer("halfOpenCalls", 1, Integer.MAX_VALUE, d.halfOpenCalls()));
        return upstream.build(errorsBefore, builder::build, d);
    }

    /**
     * The adaptive concurrency limit: {@code null} without {@code adaptiveConcurrency} (or with {@code
     * off}); {@code on} for the defaults.
     */
    private static AdaptiveConcurrencyOptions adaptiveConcurrency(Section upstream, int errorsBefore) {
        if (!upstream.has("adaptiveConcurrency") || upstream.isOff("adaptiveConcurrency")) {
            return null;
        }
        if (upstream.node("adaptiveConcurrency") instanceof YamlScalar scalar
                && !scalar.isNull()
                && (scalar.text().equalsIgnoreCase("on") || scalar.text().equalsIgnoreCase("true"))) {
            return AdaptiveConcurrencyOptions.ofDefault();
        }
        Section section =
                upstream.section("adaptiveConcurrency", upstream.context() + " adaptiveConcurrency", ADAPTIVE_KEYS);
        AdaptiveConcurrencyOptions d = AdaptiveConcurrencyOptions.ofDefault();
        if (section == null) {
            return d;
        }
        AdaptiveConcurrencyOptions.Builder builder = AdaptiveConcurrencyOptions.builder()
                .initialLimit(section.integer("initialLimit", 1, Integer.MAX_VALUE, d.initialLimit()))
                .minLimit(section.integer("minLimit", 1, Integer.MAX_VALUE, d.minLimit()))
                .maxLimit(section.integer("maxLimit", 1, Integer.MAX_VALUE, d.maxLimit()))
                .rttTolerance(section.decimal("rttTolerance", 1, 100, d.rttTolerance()))
                .smoothing(section.decimal("smoothing", 0.01, 1, d.smoothing()))
                .queueSize(section.integer("queueSize", 0, Integer.MAX_VALUE, d.queueSize()))
                .window(section.positiveDuration("window", d.window()))
                .longWindow(section.integer("longWindow", 1, Integer.MAX_VALUE, d.longWindow()))
                .backoffRatio(section.decimal("backoffRatio", 0.01, 0.99, d.backoffRatio()))
                .probeInterval(section.duration("probeInterval", d.probeInterval()))
                .probeJitter(section.decimal("probeJitter", 0, 1, d.probeJitter()));
        return section.build(errorsBefore, builder::build, d);
    }

    /** The group's own client: its pool, call timeouts, name servers, protocol and TLS. */
    private ClientOptions client(Section upstream, int errorsBefore, ClientTlsOptions tls) {
        PoolOptions pool = pool(upstream, errorsBefore);
        ClientProtocol protocol = protocol(upstream);
        TimeoutOverrides timeouts = timeouts(upstream, upstream.context() + " timeouts");
        List<InetSocketAddress> nameServers = nameServers(upstream);
        return upstream.build(
                errorsBefore,
                () -> ClientOptions.builder()
                        .pool(pool)
                        .timeouts(timeouts.applyTo(ClientTimeouts.ofDefault()))
                        .nameServers(nameServers)
                        .protocol(protocol)
                        .tls(tls == null ? ClientTlsOptions.ofDefault() : tls)
                        .build(),
                ClientOptions.ofDefault());
    }

    private static PoolOptions pool(Section upstream, int errorsBefore) {
        Section section = upstream.section("pool", upstream.context() + " pool", POOL_KEYS);
        PoolOptions d = PoolOptions.ofDefault();
        if (section == null) {
            return d;
        }
        PoolOptions.Builder builder = PoolOptions.builder()
                .maxConnections(section.integer("maxConnections", 1, Integer.MAX_VALUE, d.maxConnections()))
                .maxPending(section.integer("maxPending", 0, Integer.MAX_VALUE, d.maxPending()))
                .idleTimeout(section.duration("idleTimeout", d.idleTimeout()))
                .maxLifetime(section.duration("maxLifetime", d.maxLifetime()))
                .abandonedDrain((int) section.size("abandonedDrain", 0, Integer.MAX_VALUE, d.abandonedDrain()))
                .abandonedDrainTime(section.duration("abandonedDrainTime", d.abandonedDrainTime()))
                .pingInterval(section.duration("pingInterval", d.pingInterval()));
        return upstream.build(errorsBefore, builder::build, d);
    }

    /** The upstream call timeouts under {@code timeouts} that are given; the others are {@code null}. */
    static TimeoutOverrides timeouts(Section parent, String context) {
        Section section = parent.section("timeouts", context, TIMEOUT_KEYS);
        if (section == null) {
            return TimeoutOverrides.NONE;
        }
        return new TimeoutOverrides(
                section.duration("connect", null),
                section.duration("responseHeaders", null),
                section.duration("bodyIdle", null),
                section.duration("call", null));
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
