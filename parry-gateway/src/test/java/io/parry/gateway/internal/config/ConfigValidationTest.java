package io.parry.gateway.internal.config;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowableOfType;

import java.util.List;
import java.util.Map;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Test;

/** Each kind of mistake gives one sentence at the line and column where it was made. */
class ConfigValidationTest {
    private static final String UPSTREAM =
            """
            upstreams:
              todo: { endpoints: [127.0.0.1:9000] }
            """;

    @Test
    void reportsInvalidYamlSyntax() {
        assertThat(errors("listener: { port: 8080\nroutes: []\n"))
                .containsExactly(
                        "gw.yaml:2:7: invalid YAML: expected ',' or '}', but got : (while parsing a flow mapping started at line 1,"
                                + " column 11)");
    }

    @Test
    void reportsAnEmptyFile() {
        assertThat(errors("# nothing yet\n"))
                .containsExactly(
                        "gw.yaml:1:1: the file is empty (expected a mapping with listener, upstreams and routes)");
    }

    @Test
    void reportsARootThatIsNotAMapping() {
        assertThat(errors("- a\n- b\n"))
                .containsExactly(
                        "gw.yaml:1:1: the file must be a mapping with keys version, listener, redirectListener, admin, limits,"
                                + " timeouts, forwarding, accessLog, metrics, tracing, upstreams, defaults, routes, redis, overload, got a list");
    }

    @Test
    void reportsAnUnknownKeyWithTheClosestOne() {
        assertThat(
                        errors(
                                UPSTREAM
                                        + """
                routes:
                  - name: todos
                    match: { prefix: /api }
                    proxy:
                      upstream: todo
                      retires: {}
                      retyr: {}
                """))
                .containsExactly(
                        "gw.yaml:8:7: unknown key 'retires' in route 'todos' proxy (expected one of: upstream,"
                                + " split, sticky, stripPrefix, replacePrefix, pathTemplate, host, requestHeaders, responseHeaders,"
                                + " timeouts, retry, webSocket)",
                        "gw.yaml:9:7: unknown key 'retyr' in route 'todos' proxy, did you mean 'retry'? (expected one"
                                + " of: upstream, split, sticky, stripPrefix, replacePrefix, pathTemplate, host, requestHeaders,"
                                + " responseHeaders, timeouts, retry, webSocket)");
    }

    @Test
    void reportsAnUnknownTopLevelKey() {
        assertThat(errors("listner: {}\n"))
                .containsExactly("gw.yaml:1:1: unknown key 'listner' in the file, did you mean 'listener'? (expected"
                        + " one of: version, listener, redirectListener, admin, limits, timeouts, forwarding, accessLog, metrics, tracing,"
                        + " upstreams, defaults, routes, redis, overload)");
    }

    @Test
    void reportsAWrongType() {
        assertThat(errors("listener: { host: 0.0.0.0, port: abc }\n"))
                .containsExactly("gw.yaml:1:34: 'port' must be an integer from 0 to 65535, got 'abc'");
    }

    @Test
    void reportsANumberOutOfRange() {
        assertThat(errors("admin:\n  port: 70000\n"))
                .containsExactly("gw.yaml:2:9: 'port' must be an integer from 0 to 65535, got '70000'");
    }

    @Test
    void reportsAMissingValue() {
        assertThat(errors("listener:\n  port:\n"))
                .containsExactly("gw.yaml:2:8: 'port' must be an integer from 0 to 65535, got nothing");
    }

    @Test
    void reportsAListWhereAMappingBelongs() {
        assertThat(errors("limits: [1, 2]\n"))
                .containsExactly("gw.yaml:1:9: 'limits' must be a mapping with keys maxBodySize, maxHeaderSize,"
                        + " maxConnections, got a list");
    }

    @Test
    void reportsAnInvalidSizeWithAHint() {
        assertThat(errors("limits: { maxBodySize: 10MB, maxHeaderSize: 0 }\n"))
                .containsExactly(
                        "gw.yaml:1:24: 'maxBodySize' must be a size such as 65536, 64KiB, 10MiB or 1GiB, got '10MB',"
                                + " did you mean '10MiB'?",
                        "gw.yaml:1:45: 'maxHeaderSize' must be greater than zero, got '0'");
    }

    @Test
    void reportsAnInvalidDuration() {
        assertThat(errors("timeouts: { idle: 10 }\n"))
                .containsExactly("gw.yaml:1:19: 'idle' must be a duration such as 250ms, 10s, 2m or 1h, got '10'");
    }

    @Test
    void reportsAZeroDurationWhereOneMustBePositive() {
        assertThat(errors("upstreams:\n  a:\n    endpoints: [h:1]\n    breaker: { openDuration: 0s }\n"))
                .containsExactly("gw.yaml:4:30: 'openDuration' must be a duration greater than zero such as 250ms,"
                        + " 10s, 2m or 1h, got '0s'");
    }

    @Test
    void reportsAnInvalidBoolean() {
        assertThat(errors("forwarding: { xForwarded: yes }\n"))
                .containsExactly("gw.yaml:1:27: 'xForwarded' must be true or false, got 'yes'");
    }

    @Test
    void reportsADanglingUpstream() {
        assertThat(
                        errors(
                                UPSTREAM
                                        + """
                routes:
                  - name: todos
                    match: { prefix: /api/todos }
                    proxy: { upstream: todoz }
                """))
                .containsExactly("gw.yaml:6:24: route 'todos' proxies to upstream 'todoz', which is not defined"
                        + " (defined: todo)");
    }

    @Test
    void reportsADanglingUpstreamWhenNoneIsDefined() {
        assertThat(errors("routes:\n  - match: { prefix: / }\n    proxy: { upstream: api }\n"))
                .containsExactly("gw.yaml:3:24: route 'route-1' proxies to upstream 'api', which is not defined"
                        + " (defined: none)");
    }

    @Test
    void reportsAProxyWithoutAnUpstream() {
        assertThat(errors("routes:\n  - match: { prefix: / }\n    proxy: { host: keep }\n"))
                .containsExactly("gw.yaml:3:12: route 'route-1' proxy has no 'upstream' (expected the name of an"
                        + " upstream group)");
    }

    @Test
    void reportsARouteWithoutAnAction() {
        assertThat(errors("routes:\n  - name: lost\n    match: { prefix: / }\n"))
                .containsExactly("gw.yaml:2:5: route 'lost' has no action (expected exactly one of proxy, respond,"
                        + " redirect)");
    }

    @Test
    void reportsARouteWithTwoActions() {
        assertThat(
                        errors(
                                """
                routes:
                  - match: { path: /x }
                    respond: { body: hi }
                    redirect: { location: /y }
                """))
                .containsExactly("gw.yaml:4:5: route 'route-1' has both 'respond' and 'redirect' (expected exactly one"
                        + " of proxy, respond, redirect)");
    }

    @Test
    void reportsARouteWithoutAMatch() {
        assertThat(errors("routes:\n  - respond: {}\n"))
                .containsExactly("gw.yaml:2:5: route 'route-1' has no 'match' (expected a mapping with a prefix or a"
                        + " path, such as {prefix: /api})");
    }

    @Test
    void reportsAMatchWithNeitherPrefixNorPath() {
        assertThat(errors("routes:\n  - match: { methods: [GET] }\n    respond: {}\n"))
                .containsExactly("gw.yaml:2:12: route 'route-1' match has neither 'prefix' nor 'path' (expected exactly"
                        + " one)");
    }

    @Test
    void reportsAMatchWithBothPrefixAndPath() {
        assertThat(errors("routes:\n  - match: { prefix: /a, path: /b }\n    respond: {}\n"))
                .containsExactly(
                        "gw.yaml:2:26: route 'route-1' match has both 'prefix' and 'path' (expected exactly" + " one)");
    }

    @Test
    void reportsAPrefixThatIsNotAPath() {
        assertThat(errors("routes:\n  - match: { prefix: api }\n    respond: {}\n"))
                .containsExactly(
                        "gw.yaml:2:22: 'prefix' must be a path prefix such as /api, got 'api': it does not start with /");
    }

    @Test
    void reportsAnInvalidTemplate() {
        assertThat(errors("routes:\n  - match: { path: \"/users/{1d}\" }\n    respond: {}\n"))
                .containsExactly("gw.yaml:2:20: 'path' must be a path such as /hello or a template such as /users/{id},"
                        + " got '/users/{1d}': its parameter '{1d}' is not {name} or, last, {*name}, with a name of"
                        + " letters, digits and _");
    }

    @Test
    void reportsARewriteTemplateParameterTheRouteDoesNotDefine() {
        assertThat(
                        errors(
                                UPSTREAM
                                        + """
                routes:
                  - match: { path: "/people/{pid}" }
                    proxy: { upstream: todo, pathTemplate: "/users/{id}" }
                """))
                .containsExactly("gw.yaml:5:44: 'pathTemplate' uses the parameter 'id', which the route's path"
                        + " '/people/{pid}' does not define");
    }

    @Test
    void reportsTwoPathRewrites() {
        assertThat(
                        errors(
                                UPSTREAM
                                        + """
                routes:
                  - match: { prefix: /api }
                    proxy: { upstream: todo, stripPrefix: /api, pathTemplate: /x }
                """))
                .containsExactly("gw.yaml:5:49: route 'route-1' proxy has both 'stripPrefix' and 'pathTemplate'"
                        + " (expected at most one of stripPrefix, replacePrefix, pathTemplate)");
    }

    @Test
    void reportsAnIncompleteReplacePrefix() {
        assertThat(
                        errors(
                                UPSTREAM
                                        + """
                routes:
                  - match: { prefix: /api }
                    proxy: { upstream: todo, replacePrefix: { prefix: /api } }
                """))
                .containsExactly("gw.yaml:5:45: route 'route-1' proxy replacePrefix has no 'with' (expected the path"
                        + " that replaces it, such as /v2)");
    }

    @Test
    void reportsDuplicateRouteNames() {
        assertThat(
                        errors(
                                """
                routes:
                  - name: a
                    match: { path: /a }
                    respond: {}
                  - name: a
                    match: { path: /b }
                    respond: {}
                """))
                .containsExactly("gw.yaml:5:5: duplicate route name 'a' (first used at line 2)");
    }

    @Test
    void reportsADuplicateKey() {
        assertThat(errors("listener:\n  port: 1\n  port: 2\n"))
                .containsExactly("gw.yaml:3:3: duplicate key 'port' (first given at line 2)");
    }

    @Test
    void reportsAnUpstreamWithoutEndpoints() {
        assertThat(errors("upstreams:\n  a: { balancing: round_robin }\n  b: { endpoints: [] }\n"))
                .containsExactly(
                        "gw.yaml:2:6: upstream 'a' has no 'endpoints' (expected a list of endpoints, each an address"
                                + " such as 127.0.0.1:9000, http://api.internal:8080 or https://api.internal:8443)",
                        "gw.yaml:3:19: 'endpoints' of upstream 'b' is empty (expected at least one, an address such as"
                                + " 127.0.0.1:9000, http://api.internal:8080 or https://api.internal:8443)");
    }

    @Test
    void reportsAnInvalidEndpoint() {
        assertThat(errors("upstreams:\n  a:\n    endpoints: [\"h:1\", \"h:x\", { address: \"h:1\", weight: 0 }]\n"))
                .containsExactly(
                        "gw.yaml:3:24: 'h:x' is not an endpoint address (expected an address such as 127.0.0.1:9000"
                                + ", http://api.internal:8080 or https://api.internal:8443)",
                        "gw.yaml:3:31: endpoint h:1 is listed twice in upstream 'a'",
                        "gw.yaml:3:57: 'weight' must be an integer of at least 1, got '0'");
    }

    @Test
    void reportsANameServerThatIsNotAnIpAddress() {
        assertThat(errors("upstreams:\n  a:\n    endpoints: [h:1]\n    nameServers: [dns.internal, \"10.0.0.2:x\"]\n"))
                .containsExactly(
                        "gw.yaml:4:19: 'dns.internal' is not a name server address (expected an IP address with an"
                                + " optional port, such as 10.0.0.2 or 10.0.0.2:53)",
                        "gw.yaml:4:33: '10.0.0.2:x' is not a name server address (expected an IP address with an"
                                + " optional port, such as 10.0.0.2 or 10.0.0.2:53)");
    }

    @Test
    void reportsAnUnknownBalancing() {
        assertThat(errors("upstreams:\n  a: { endpoints: [h:1], balancing: round-robin }\n"))
                .containsExactly("gw.yaml:2:37: 'balancing' must be one of round_robin, weighted_round_robin,"
                        + " least_outstanding, power_of_two_choices, got 'round-robin', did you mean 'round_robin'?");
    }

    @Test
    void reportsAnUnknownPathNormalizationAction() {
        assertThat(errors("listener:\n  pathNormalization:\n    escapedSlashes: reject\n    pathParameters: [strip]\n"))
                .containsExactly(
                        "gw.yaml:3:21: 'escapedSlashes' must be one of keep_unchanged, reject_request,"
                                + " unescape_and_redirect, unescape_and_forward, got 'reject'",
                        "gw.yaml:4:21: 'pathParameters' must be one of keep_unchanged, strip, reject_request, got a"
                                + " list");
    }

    @Test
    void reportsAPathNormalizationOnTheAdminListener() {
        assertThat(errors("admin: { pathNormalization: {} }\n"))
                .containsExactly(
                        "gw.yaml:1:10: unknown key 'pathNormalization' in 'admin' (expected one of: host, port, token)");
    }

    @Test
    void reportsAnInvalidUpstreamName() {
        assertThat(errors("upstreams:\n  \"my api\": { endpoints: [h:1] }\n"))
                .containsExactly(
                        "gw.yaml:2:3: upstream name 'my api' must be made of letters, digits, '.', '_' and" + " '-'");
    }

    @Test
    void reportsAnInvalidHealthCheckPath() {
        assertThat(errors("upstreams:\n  a: { endpoints: [h:1], healthCheck: { path: health } }\n"))
                .containsExactly("gw.yaml:2:47: 'path' must be an origin-form path such as /health, got 'health'");
    }

    @Test
    void reportsOutlierEjectionTimesOutOfOrder() {
        assertThat(errors("upstreams:\n  a:\n    endpoints: [h:1]\n"
                        + "    outlierDetection: { ejectionTime: 1m, maxEjectionTime: 30s }\n"))
                .containsExactly("gw.yaml:4:60: 'maxEjectionTime' (30s) must be at least 'ejectionTime' (1m)");
    }

    @Test
    void reportsAnInvalidTrustedProxy() {
        assertThat(errors("forwarding: { trustedProxies: [10.0.0.0/8, 10.0.0.0/33, proxy.internal] }\n"))
                .containsExactly(
                        "gw.yaml:1:44: '10.0.0.0/33' in 'trustedProxies' is not an IP address or CIDR block"
                                + " (expected: a prefix length from 0 to 32 after the /)",
                        "gw.yaml:1:57: 'proxy.internal' in 'trustedProxies' is not an IP address or CIDR block"
                                + " (expected: an IPv4 or IPv6 address, or a CIDR block such as 10.0.0.0/8 or"
                                + " 2001:db8::/32)");
    }

    @Test
    void reportsAnInvalidViaPseudonym() {
        assertThat(errors("forwarding: { via: \"edge 1\" }\n"))
                .containsExactly(
                        "gw.yaml:1:20: 'via' must be a token such as parry, or empty to send no Via, got 'edge 1'");
    }

    @Test
    void reportsInvalidHeaderNamesAndValues() {
        assertThat(
                        errors(
                                UPSTREAM
                                        + """
                routes:
                  - match: { prefix: / }
                    proxy:
                      upstream: todo
                      requestHeaders: { set: { "X A": "1", X-B: "a\\rb" }, remove: ["(c)"] }
                """))
                .containsExactly(
                        "gw.yaml:7:32: 'X A' in 'set' is not a valid header name (expected a token such as"
                                + " X-Request-Id)",
                        "gw.yaml:7:49: the value of header 'X-B' in 'set' holds a control character such as CR or LF,"
                                + " which a header value cannot",
                        "gw.yaml:7:68: '(c)' in 'remove' is not a valid header name (expected a token such as"
                                + " X-Request-Id)");
    }

    @Test
    void reportsAMethodInTheWrongCase() {
        assertThat(errors("routes:\n  - match: { path: /a, methods: [GET, post] }\n    respond: {}\n"))
                .containsExactly("gw.yaml:2:39: 'post' in 'methods' is not a method, did you mean 'POST'? (methods are"
                        + " case-sensitive)");
    }

    @Test
    void reportsAnInvalidMatchHost() {
        assertThat(errors("routes:\n  - match: { path: /a, host: \"a b\" }\n    respond: {}\n"))
                .containsExactly("gw.yaml:2:30: 'host' must be a host name with an optional port such as"
                        + " api.example.com, got 'a b'");
    }

    @Test
    void reportsAnInvalidHostRewrite() {
        assertThat(errors(
                        UPSTREAM + "routes:\n  - match: { prefix: / }\n    proxy: { upstream: todo, host: \"a/b\" }\n"))
                .containsExactly("gw.yaml:5:36: 'host' must be keep, endpoint or a host name such as api.internal, got"
                        + " 'a/b'");
    }

    @Test
    void reportsInvalidRetrySettings() {
        assertThat(
                        errors(
                                UPSTREAM
                                        + """
                routes:
                  - match: { prefix: / }
                    proxy:
                      upstream: todo
                      retry: { maxAttempts: 0, retryStatuses: [503, 404], backoff: 1s, maxBackoff: 100ms }
                """))
                .containsExactly(
                        "gw.yaml:7:29: 'maxAttempts' must be an integer from 1 to 100, got '0'",
                        "gw.yaml:7:53: each entry of 'retryStatuses' must be a status from 500 to 599, got '404'",
                        "gw.yaml:7:84: 'maxBackoff' (100ms) must be at least 'backoff' (1s)");
    }

    @Test
    void reportsInvalidWebSocketSettings() {
        assertThat(
                        errors(
                                UPSTREAM
                                        + """
                routes:
                  - match: { prefix: / }
                    proxy:
                      upstream: todo
                      webSocket: { maxFrameSize: 1MiB, maxMessageSize: 1KiB, allowedOrigins: [https://a.example/path] }
                """))
                .containsExactly(
                        "gw.yaml:7:56: 'maxMessageSize' must be at least 'maxFrameSize' (1048576 bytes), got 1024 bytes",
                        "gw.yaml:7:78: each entry of 'allowedOrigins' must be an origin such as https://app.example"
                                + " (scheme, host, optional port, no path), got 'https://a.example/path'");
    }

    @Test
    void reportsAnInvalidFixedResponseStatus() {
        assertThat(errors("routes:\n  - match: { path: /a }\n    respond: { status: 700 }\n"))
                .containsExactly("gw.yaml:3:24: 'status' must be an integer from 200 to 599, got '700'");
    }

    @Test
    void reportsAnInvalidRedirectStatus() {
        assertThat(errors("routes:\n  - match: { path: /a }\n    redirect: { location: /b, status: 200 }\n"))
                .containsExactly("gw.yaml:3:39: 'status' must be one of 301, 302, 303, 307 or 308, got '200'");
    }

    @Test
    void reportsARedirectWithoutALocation() {
        assertThat(errors("routes:\n  - match: { path: /a }\n    redirect: { status: 301 }\n"))
                .containsExactly("gw.yaml:3:15: route 'route-1' redirect has no 'location' (expected the URI or path"
                        + " to redirect to, such as /new)");
    }

    @Test
    void reportsAnUnknownAccessLogFormatWithTheClosestOne() {
        assertThat(errors("accessLog: jsno\n"))
                .containsExactly(
                        "gw.yaml:1:12: 'accessLog' must be one of json, combined, off, got 'jsno', did you mean 'json'?");
    }

    @Test
    void reportsAnAccessLogThatIsNotAWord() {
        assertThat(errors("accessLog: [json]\n"))
                .containsExactly("gw.yaml:1:12: 'accessLog' must be one of json, combined, off, got a list");
    }

    @Test
    void reportsAnUnknownMetricsKeyAndABadRegistrySwitch() {
        assertThat(errors("metrics:\n  promethus: true\n  jmx: yes please\n"))
                .containsExactly(
                        "gw.yaml:2:3: unknown key 'promethus' in 'metrics', did you mean 'prometheus'? (expected one"
                                + " of: prometheus, jmx)",
                        "gw.yaml:3:8: 'jmx' must be true or false, got 'yes please'");
    }

    @Test
    void reportsMetricsThatAreNeitherASectionNorOff() {
        assertThat(errors("metrics: prometheus\n"))
                .containsExactly(
                        "gw.yaml:1:10: 'metrics' must be a mapping with keys prometheus, jmx, got 'prometheus'");
    }

    @Test
    void reportsATracingSwitchThatIsNotABoolean() {
        assertThat(errors("tracing: sometimes\n"))
                .containsExactly("gw.yaml:1:10: 'tracing' must be true or false, got 'sometimes'");
    }

    @Test
    void reportsTheAdminListenerOnTheListenersPort() {
        assertThat(errors("listener: { port: 9000 }\nadmin: { port: 9000 }\n"))
                .containsExactly("gw.yaml:2:1: the admin listener's port 9000 is also the listener's (expected two"
                        + " different ports)");
    }

    @Test
    void reportsARouteThatIsNotAMapping() {
        assertThat(errors("routes:\n  - /hello\n"))
                .containsExactly(
                        "gw.yaml:2:5: each entry of 'routes' must be a mapping with keys name, match, proxy,"
                                + " respond, redirect, ipRules, cors, auth, securityHeaders, rateLimit, compression, priority, got '/hello'");
    }

    @Test
    void reportsAnAlias() {
        assertThat(errors("upstreams:\n  a: &shared { endpoints: [h:1] }\n  b: *shared\n"))
                .contains("gw.yaml:3:6: YAML aliases (*shared) are not supported; write the value out");
    }

    @Test
    void reportsASecondDocument() {
        assertThat(errors("routes: []\n---\nroutes: []\n"))
                .containsExactly("gw.yaml:3:1: a second YAML document (expected only one)");
    }

    @Test
    void reportsEveryErrorInFileOrder() {
        ConfigException e = catchThrowableOfType(
                ConfigException.class,
                () -> ConfigLoader.parse(
                        """
                        routes:
                          - match: { prefix: /a }
                            proxy: { upstream: nope }
                        listener: { port: -1 }
                        limits: { maxConnections: lots }
                        """,
                        "gw.yaml",
                        Map.of()));

        assertThat(e.errors())
                .extracting(error -> error.line() + ":" + error.column())
                .containsExactly("3:24", "4:19", "5:27");
        assertThat(e.getMessage())
                .isEqualTo(
                        """
                        3 errors in the configuration:
                        gw.yaml:3:24: route 'route-1' proxies to upstream 'nope', which is not defined (defined: none)
                        gw.yaml:4:19: 'port' must be an integer from 0 to 65535, got '-1'
                        gw.yaml:5:27: 'maxConnections' must be an integer of at least 1, got 'lots'""");
    }

    static List<String> errors(String yaml) {
        ConfigException e =
                catchThrowableOfType(ConfigException.class, () -> ConfigLoader.parse(yaml, "gw.yaml", Map.of()));
        assertThat(e).as("a ConfigException for:\n" + yaml).isNotNull();
        return e.errors().stream().map(ConfigError::toString).collect(Collectors.toList());
    }
}
