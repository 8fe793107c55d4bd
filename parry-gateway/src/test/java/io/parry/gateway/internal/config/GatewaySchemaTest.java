package io.parry.gateway.internal.config;

import static java.util.Map.entry;
import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.dataformat.yaml.YAMLFactory;
import com.fasterxml.jackson.dataformat.yaml.YAMLParser;
import com.networknt.schema.Error;
import com.networknt.schema.Schema;
import com.networknt.schema.SchemaRegistry;
import com.networknt.schema.SpecificationVersion;
import io.parry.proxy.AdaptiveConcurrencyOptions;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * {@code gateway.schema.json} says what the readers read: the same keys in every section, the same
 * choices and the library's defaults, and every example file of the repository is valid by it.
 */
class GatewaySchemaTest {
    private static final Path SCHEMA_FILE = Path.of("gateway.schema.json");
    private static final ObjectMapper JSON = new ObjectMapper();
    // Editors read YAML 1.2, where yes, no, on and off are strings, not booleans.
    private static final ObjectMapper YAML = new ObjectMapper(YAMLFactory.builder()
            .enable(YAMLParser.Feature.PARSE_BOOLEAN_LIKE_WORDS_AS_STRINGS)
            .build());
    private static final Map<String, String> ENV = Map.of("DEMO_SERVICE_PORT", "9000");

    /** Each mapping of the schema, by JSON pointer, and the keys its reader accepts. */
    private static final Map<String, List<String>> SECTIONS = Map.ofEntries(
            entry("", GatewayConfigReader.KEYS),
            entry("/$defs/listener", GatewayConfigReader.LISTENER_KEYS),
            entry("/$defs/admin", GatewayConfigReader.ADMIN_KEYS),
            entry("/$defs/redirectListener", GatewayConfigReader.REDIRECT_KEYS),
            entry("/$defs/tls", TlsReader.KEYS),
            entry("/$defs/tlsCertificate", TlsReader.CERTIFICATE_KEYS),
            entry("/$defs/pathNormalization", PathNormalizationReader.KEYS),
            entry("/$defs/limits", GatewayConfigReader.LIMITS_KEYS),
            entry("/$defs/serverTimeouts", GatewayConfigReader.TIMEOUTS_KEYS),
            entry("/$defs/forwarding", GatewayConfigReader.FORWARDING_KEYS),
            entry("/$defs/metrics", ObservabilityReader.METRICS_KEYS),
            entry("/$defs/upstream", UpstreamReader.KEYS),
            entry("/$defs/endpoint", UpstreamReader.ENDPOINT_KEYS),
            entry("/$defs/upstreamTls", UpstreamReader.TLS_KEYS),
            entry("/$defs/upstreamTls/properties/clientCertificate", UpstreamReader.CLIENT_CERTIFICATE_KEYS),
            entry("/$defs/healthCheck", UpstreamReader.HEALTH_CHECK_KEYS),
            entry("/$defs/outlierDetection", UpstreamReader.OUTLIER_KEYS),
            entry("/$defs/breaker", UpstreamReader.BREAKER_KEYS),
            entry("/$defs/adaptiveConcurrency", UpstreamReader.ADAPTIVE_KEYS),
            entry("/$defs/pool", UpstreamReader.POOL_KEYS),
            entry("/$defs/upstreamTimeouts", UpstreamReader.TIMEOUT_KEYS),
            entry("/$defs/route", RouteReader.KEYS),
            entry("/$defs/match", MatchReader.KEYS),
            entry("/$defs/proxy", ProxyActionReader.KEYS),
            entry("/$defs/split", ProxyActionReader.SPLIT_KEYS),
            entry("/$defs/replacePrefix", ProxyActionReader.REPLACE_PREFIX_KEYS),
            entry("/$defs/headerRules", ProxyActionReader.HEADER_RULE_KEYS),
            entry("/$defs/retry", ProxyActionReader.RETRY_KEYS),
            entry("/$defs/webSocket", ProxyActionReader.WEBSOCKET_KEYS),
            entry("/$defs/respond", RouteReader.RESPOND_KEYS),
            entry("/$defs/redirect", RouteReader.REDIRECT_KEYS),
            entry("/$defs/defaults", GatewayConfigReader.DEFAULTS_KEYS),
            entry("/$defs/ipRules", ProtectionReader.IP_RULES_KEYS),
            entry("/$defs/cors", ProtectionReader.CORS_KEYS),
            entry("/$defs/auth", ProtectionReader.AUTH_KEYS),
            entry("/$defs/failureLimit", ProtectionReader.FAILURE_LIMIT_KEYS),
            entry("/$defs/jwt", ProtectionReader.JWT_KEYS),
            entry("/$defs/apiKey", ProtectionReader.API_KEY_KEYS),
            entry("/$defs/basic", ProtectionReader.BASIC_KEYS),
            entry("/$defs/securityHeaders", ProtectionReader.SECURITY_HEADERS_KEYS),
            entry("/$defs/compression", ProtectionReader.COMPRESSION_KEYS),
            entry("/$defs/requestDecompression", ProtectionReader.REQUEST_DECOMPRESSION_KEYS),
            entry("/$defs/rateLimit", RateLimitReader.KEYS),
            entry("/$defs/redis", RateLimitReader.REDIS_KEYS),
            entry("/$defs/overload", OverloadReader.KEYS));

    private static final JsonNode SCHEMA_NODE = readJson(SCHEMA_FILE);
    private static final Schema SCHEMA = SchemaRegistry.withDefaultDialect(SpecificationVersion.DRAFT_2020_12)
            .getSchema(SCHEMA_NODE);

    @Test
    void everyKeyTheReadersAcceptIsInTheSchemaAndNoOther() {
        SECTIONS.forEach((pointer, keys) -> assertThat(propertyNames(SCHEMA_NODE.at(pointer)))
                .as(pointer.isEmpty() ? "the top level" : pointer)
                .containsExactlyInAnyOrderElementsOf(keys));
        Set<String> mappings = new TreeSet<>();
        collectMappings(SCHEMA_NODE, "", mappings);
        assertThat(mappings).containsExactlyInAnyOrderElementsOf(SECTIONS.keySet());
        assertThat(SCHEMA_NODE.at("/$defs/upstream/additionalProperties").asBoolean(true))
                .isFalse();
    }

    @Test
    void offersTheChoicesTheReadersTake() {
        assertThat(texts(SCHEMA_NODE.at("/$defs/upstream/properties/balancing/enum")))
                .containsExactlyElementsOf(UpstreamReader.BALANCING_NAMES);
        assertThat(texts(SCHEMA_NODE.at("/$defs/upstream/properties/protocol/enum")))
                .containsExactlyElementsOf(UpstreamReader.PROTOCOL_NAMES);
        assertThat(texts(SCHEMA_NODE.at("/$defs/route/properties/priority/enum")))
                .containsExactlyElementsOf(OverloadReader.PRIORITY_NAMES);
        List<String> accessLog = texts(SCHEMA_NODE.at("/properties/accessLog/anyOf/0/enum"));
        accessLog.add("off");
        assertThat(accessLog).containsExactlyElementsOf(ObservabilityReader.ACCESS_LOG_NAMES);
        assertThat(SCHEMA_NODE.at("/$defs/redirect/properties/status/anyOf/0/enum"))
                .extracting(JsonNode::asInt)
                .containsExactlyElementsOf(RouteReader.REDIRECT_STATUSES);
    }

    @Test
    void itsDefaultsAreTheLibrarysDefaults() {
        String minimal =
                """
                upstreams:
                  a: { endpoints: [127.0.0.1:1234] }
                routes:
                  - { match: { prefix: /a }, proxy: { upstream: a } }
                  - { match: { path: /b }, respond: {} }
                  - { match: { path: /c }, redirect: { location: /d } }
                """;
        String spelledOut = "listener: "
                + defaults(
                        "/$defs/listener",
                        "host: 0.0.0.0, port: 8080, pathNormalization: " + defaults("/$defs/pathNormalization", ""))
                + "\nadmin: { host: 127.0.0.1, port: 9901 }"
                + "\nlimits: " + defaults("/$defs/limits", "")
                + "\ntimeouts: " + defaults("/$defs/serverTimeouts", "")
                + "\nforwarding: " + defaults("/$defs/forwarding", "")
                + "\nmetrics: " + defaults("/$defs/metrics", "")
                + "\naccessLog: " + defaultOf(SCHEMA_NODE.at("/properties/accessLog"))
                + "\ntracing: " + defaultOf(SCHEMA_NODE.at("/properties/tracing"))
                + "\nupstreams:\n  a: "
                + defaults(
                        "/$defs/upstream",
                        "endpoints: [127.0.0.1:1234], outlierDetection: " + defaults("/$defs/outlierDetection", "")
                                + ", breaker: " + defaults("/$defs/breaker", "")
                                + ", pool: " + defaults("/$defs/pool", "")
                                + ", timeouts: " + defaults("/$defs/upstreamTimeouts", ""))
                + "\nroutes:"
                + "\n  - { match: { prefix: /a }, proxy: "
                + defaults(
                        "/$defs/proxy",
                        "upstream: a, retry: " + defaults("/$defs/retry", "") + ", webSocket: "
                                + defaults("/$defs/webSocket", ""))
                + " }"
                + "\n  - { match: { path: /b }, respond: " + defaults("/$defs/respond", "") + " }"
                + "\n  - { match: { path: /c }, redirect: " + defaults("/$defs/redirect", "location: /d") + " }\n";

        assertThat(ConfigLoader.parse(spelledOut, "defaults.yaml", Map.of()))
                .isEqualTo(ConfigLoader.parse(minimal, "minimal.yaml", Map.of()));
        assertThat(errors(spelledOut)).isEmpty();
    }

    @Test
    void itsAdaptiveConcurrencyDefaultsAreTheProxysDefaults() {
        String spelledOut = "upstreams:\n  a: { endpoints: [127.0.0.1:1234], adaptiveConcurrency: "
                + defaults("/$defs/adaptiveConcurrency", "") + " }\n"
                + "routes:\n  - { match: { prefix: /a }, proxy: { upstream: a } }\n";

        assertThat(ConfigLoader.parse(spelledOut, "defaults.yaml", Map.of())
                        .upstreams()
                        .get("a")
                        .adaptiveConcurrency())
                .isEqualTo(AdaptiveConcurrencyOptions.ofDefault());
        assertThat(errors(spelledOut)).isEmpty();
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("examples")
    void acceptsEveryExampleOfTheRepository(String name, String yaml) {
        ConfigLoader.parse(yaml, name, ENV);

        assertThat(errors(yaml)).isEmpty();
    }

    @Test
    void refusesUnknownKeysAndWrongValuesAsTheReadersDo() {
        assertThat(errors("listener: { prot: 80 }\n")).isNotEmpty();
        assertThat(errors("limits: { maxBodySize: 10MB }\n")).isNotEmpty();
        assertThat(errors("upstreams: { a: { endpoints: [] } }\n")).isNotEmpty();
        assertThat(errors("routes: [ { match: { prefix: /a }, respond: {}, redirect: { location: /b } } ]\n"))
                .isNotEmpty();
    }

    @Test
    void acceptsPlaceholdersWhereAnEditorSeesThem() {
        assertThat(schemaErrors("listener:\n  port: ${PORT}\nupstreams: { a: { endpoints: [a:1], breaker: off } }\n"))
                .isEmpty();
    }

    static Stream<Arguments> examples() throws IOException {
        List<Arguments> examples = new ArrayList<>();
        examples.add(Arguments.of("demo.yaml", ConfigLoader.demoYaml()));
        examples.add(Arguments.of("ConfigLoaderTest.FULL", ConfigLoaderTest.FULL));
        Matcher blocks =
                Pattern.compile("```yaml\\n(.*?)```", Pattern.DOTALL).matcher(Files.readString(Path.of("README.md")));
        for (int i = 1; blocks.find(); i++) {
            examples.add(Arguments.of("README.md yaml block " + i, blocks.group(1)));
        }
        return examples.stream();
    }

    /** The schema's complaints about the file, its placeholders replaced as the gateway replaces them. */
    private static List<Error> errors(String yaml) {
        return schemaErrors(
                Substitution.apply(yaml, ENV, new ConfigErrors("test.yaml")).text());
    }

    /** The schema's complaints about the text as it is, as an editor shows them. */
    private static List<Error> schemaErrors(String text) {
        try {
            JsonNode tree = YAML.readTree(text);
            return SCHEMA.validate(tree == null || tree.isMissingNode() ? JSON.createObjectNode() : tree);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** A flow mapping of every default the schema gives in this section, after the given entries. */
    private static String defaults(String pointer, String given) {
        List<String> entries = new ArrayList<>();
        if (!given.isEmpty()) {
            entries.add(given);
        }
        Iterator<Map.Entry<String, JsonNode>> properties =
                SCHEMA_NODE.at(pointer + "/properties").fields();
        while (properties.hasNext()) {
            Map.Entry<String, JsonNode> property = properties.next();
            if (property.getValue().has("default") && !given.contains(property.getKey() + ":")) {
                entries.add(property.getKey() + ": " + defaultOf(property.getValue()));
            }
        }
        return "{ " + String.join(", ", entries) + " }";
    }

    private static String defaultOf(JsonNode property) {
        return property.get("default").toString();
    }

    private static void collectMappings(JsonNode node, String pointer, Set<String> mappings) {
        if (node.has("properties")) {
            mappings.add(pointer);
        }
        Iterator<Map.Entry<String, JsonNode>> fields = node.fields();
        while (fields.hasNext()) {
            Map.Entry<String, JsonNode> field = fields.next();
            if (field.getValue().isObject() && !field.getKey().equals("properties")) {
                collectMappings(field.getValue(), pointer + "/" + field.getKey(), mappings);
            } else if (field.getKey().equals("properties")) {
                field.getValue()
                        .fields()
                        .forEachRemaining(
                                p -> collectMappings(p.getValue(), pointer + "/properties/" + p.getKey(), mappings));
            }
        }
    }

    private static List<String> propertyNames(JsonNode mapping) {
        List<String> names = new ArrayList<>();
        mapping.path("properties").fieldNames().forEachRemaining(names::add);
        return names;
    }

    private static List<String> texts(JsonNode array) {
        List<String> texts = new ArrayList<>();
        array.forEach(item -> texts.add(item.asText()));
        return texts;
    }

    private static JsonNode readJson(Path file) {
        try {
            return JSON.readTree(file.toFile());
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
