package io.parry.gateway.internal.config;

import static io.parry.gateway.internal.config.ConfigValidationTest.errors;
import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** The match predicates (query, cookies, client address), the weighted split and claim keys, read and checked with their lines. */
class MatchAndSplitConfigTest {
    private static final String UPSTREAMS =
            """
            upstreams:
              stable: { endpoints: [127.0.0.1:9000] }
              canary: { endpoints: [127.0.0.1:9001] }
            routes:
            """;

    @Test
    void readsQueryCookieAndClientAddressConditions() {
        GatewayConfig config = ConfigLoader.parse(
                UPSTREAMS
                        + """
                          - match: { prefix: /a, query: { v: "2", beta: { present: true } }, cookies: { channel: beta },
                                     clientAddress: [10.0.0.0/8, "::1"] }
                            respond: {}
                        """,
                "gw.yaml",
                Map.of());
        MatchConfig match = config.routes().get(0).match();

        Map<String, String> query = new java.util.LinkedHashMap<>();
        query.put("v", "2");
        query.put("beta", null);
        assertThat(match.query()).containsExactlyEntriesOf(query);
        assertThat(match.cookies()).isEqualTo(Map.of("channel", "beta"));
        assertThat(match.clientAddress()).containsExactly("10.0.0.0/8", "::1");
    }

    @Test
    void reportsWrongQueryCookieAndClientAddressConditionsAtTheirLines() {
        assertThat(
                        errors(
                                UPSTREAMS
                                        + """
                          - match:
                              prefix: /a
                              query: { beta: { present: false }, v: [1] }
                              cookies: { "a b": x, ok: "has space" }
                              clientAddress: [10.0.0.1/8, nonsense]
                            respond: {}
                        """))
                .containsExactly(
                        "gw.yaml:7:22: 'beta' in 'query' must be a value, or {present: true} for any value, got a mapping",
                        "gw.yaml:7:45: 'v' in 'query' must be a value, or {present: true} for any value, got a list",
                        "gw.yaml:8:18: 'a b' in 'cookies' is not a cookie name (expected a token such as session)",
                        "gw.yaml:8:32: the value of cookie 'ok' holds a character a cookie value cannot (a space, a"
                                + " quote, a comma, a semicolon, a backslash or a control character; RFC 6265, section"
                                + " 4.1.1)",
                        "gw.yaml:9:23: 'clientAddress' is invalid: clientAddress: 10.0.0.1/8 (expected: no address bits"
                                + " set after the prefix length)",
                        "gw.yaml:9:35: 'clientAddress' is invalid: clientAddress: nonsense (expected: an IPv4 or IPv6"
                                + " address, or a CIDR block such as 10.0.0.0/8 or 2001:db8::/32)");
    }

    @Test
    void readsASplitWithAStickyCookie() {
        GatewayConfig config = ConfigLoader.parse(
                UPSTREAMS
                        + """
                          - match: { prefix: /a }
                            proxy:
                              split: [ { upstream: stable, weight: 95 }, { upstream: canary, weight: 5 } ]
                              sticky: "cookie:session"
                        """,
                "gw.yaml",
                Map.of());
        ProxyAction proxy = (ProxyAction) config.routes().get(0).action();

        assertThat(proxy.upstream()).isNull();
        assertThat(proxy.split())
                .isEqualTo(new SplitConfig(
                        List.of(new SplitConfig.Target("stable", 95), new SplitConfig.Target("canary", 5)),
                        null,
                        "session"));
    }

    @Test
    void reportsWrongSplitsAtTheirLines() {
        assertThat(
                        errors(
                                UPSTREAMS
                                        + """
                          - match: { prefix: /a }
                            proxy: { upstream: stable, split: [ { upstream: canary, weight: 1 } ] }
                          - match: { prefix: /b }
                            proxy: { split: [ { upstream: nowhere, weight: 1 }, { upstream: stable } ], sticky: "query:x" }
                          - match: { prefix: /c }
                            proxy: { split: [ { upstream: stable, weight: 0 }, { upstream: stable, weight: 0 } ] }
                          - match: { prefix: /d }
                            proxy: { upstream: stable, sticky: "header:X-User" }
                        """))
                .containsExactly(
                        "gw.yaml:6:32: route 'route-1' proxy has both 'upstream' and 'split' (expected exactly one)",
                        "gw.yaml:8:35: route 'route-2' proxies to upstream 'nowhere', which is not defined (defined:"
                                + " stable, canary)",
                        "gw.yaml:8:57: route 'route-2' proxy split has no 'weight' (expected an integer from 0 to 10000)",
                        "gw.yaml:8:89: 'sticky' must be header:<name> or cookie:<name>, got 'query:x'",
                        "gw.yaml:10:21: the weights in 'split' add up to 0 (expected 1 to 10000)",
                        "gw.yaml:10:68: upstream 'stable' is in 'split' twice (expected each group once)",
                        "gw.yaml:12:40: route 'route-4' proxy has 'sticky' without 'split' (it chooses a side of a split)");
    }

    @Test
    void reportsALimitKeyedByAClaimOnARouteWithoutAuthentication() {
        assertThat(
                        errors(
                                UPSTREAMS
                                        + """
                          - match: { prefix: /a }
                            rateLimit: { rate: 10, key: "claim:tenant" }
                            respond: {}
                        """))
                .containsExactly("gw.yaml:6:5: route 'route-1' has a rate limit keyed by 'claim:tenant' but no 'auth'"
                        + " to verify it (expected auth, here or under defaults)");
    }

    /** The credentials' field is gone when the limit runs: keyed by it, every client would share one bucket. */
    @Test
    void reportsALimitKeyedByTheFieldItsAuthenticationRemoves() {
        assertThat(errors(UPSTREAMS
                        + """
                          - match: { prefix: /a }
                            auth: { apiKey: { header: X-Key, keys: { ci: "sha256:%s" } } }
                            rateLimit: { rate: 10, key: "header:x-key" }
                            respond: {}
                          - match: { prefix: /b }
                            auth: { basic: { users: {} } }
                            rateLimit: { rate: 10, key: [client_address, "header:Authorization"] }
                            respond: {}
                          - match: { prefix: /c }
                            auth: { apiKey: { header: X-Key, keys: { ci: "sha256:%s" } } }
                            rateLimit: { rate: 10, key: "claim:sub" }
                            respond: {}
                        """
                                .formatted("0".repeat(64), "0".repeat(64))))
                .containsExactly(
                        "gw.yaml:7:5: route 'route-1' has a rate limit keyed by 'header:x-key', which its 'auth'"
                                + " removes before the limit runs, so every client would share one bucket (expected"
                                + " 'claim:sub', the name of the verified credentials)",
                        "gw.yaml:11:5: route 'route-2' has a rate limit keyed by 'header:Authorization', which its"
                                + " 'auth' removes before the limit runs, so every client would share one bucket"
                                + " (expected 'claim:sub', the name of the verified credentials)");
    }
}
