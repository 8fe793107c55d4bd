package io.parry.gateway.internal.config;

import static io.parry.gateway.internal.config.ConfigValidationTest.errors;
import static org.assertj.core.api.Assertions.assertThat;

import io.parry.protection.IpRulesFilter;
import io.parry.protection.SecurityHeadersFilter;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** The YAML of route protection: defaults, {@code off}, and errors with their line. */
class ProtectionConfigTest {
    private static final String ROUTE = "    match: { path: /a }\n    respond: {}\n";

    @Test
    void givesEveryRouteTheDefaultsItDoesNotReplaceOrTurnOff() {
        GatewayConfig config = ConfigLoader.parse(
                """
                forwarding: { trustedProxies: [10.0.0.1] }
                defaults:
                  ipRules: { deny: [192.0.2.0/24] }
                  securityHeaders: { hsts: 8760h }
                routes:
                  - name: plain
                    match: { path: /a }
                    respond: {}
                  - name: own
                    match: { path: /b }
                    ipRules: { allow: ["::1"] }
                    securityHeaders: off
                    respond: {}
                """,
                "gw.yaml",
                Map.of());

        RouteProtection plain = config.routes().get(0).protection();
        RouteProtection own = config.routes().get(1).protection();
        assertThat(plain.ipRules())
                .isEqualTo(IpRulesFilter.builder()
                        .deny(List.of("192.0.2.0/24"))
                        .trustedProxies(List.of("10.0.0.1"))
                        .build());
        assertThat(plain.securityHeaders())
                .isEqualTo(SecurityHeadersFilter.builder()
                        .hsts(java.time.Duration.ofHours(8760), false)
                        .build());
        assertThat(own.ipRules().allow()).containsExactly("::1");
        assertThat(own.securityHeaders()).isNull();
        assertThat(config.routes().get(0).protection().auth()).isNull();
    }

    @Test
    void readsEachAuthenticationScheme() {
        GatewayConfig config = ConfigLoader.parse(
                """
                routes:
                  - match: { path: /jwt }
                    auth: { jwt: { jwksUrl: "http://idp:8080/jwks", audiences: [orders], requiredScopes: [read] } }
                    respond: {}
                  - match: { path: /key }
                    auth: { apiKey: { header: X-Key, keys: { ci: "sha256:%s" } } }
                    respond: {}
                """
                        .formatted("ab".repeat(32)),
                "gw.yaml",
                Map.of());

        AuthConfig.Jwt jwt =
                (AuthConfig.Jwt) config.routes().get(0).protection().auth();
        assertThat(jwt.jwksUrl()).hasToString("http://idp:8080/jwks");
        assertThat(jwt.algorithms()).containsExactly("ES256", "RS256");
        assertThat(jwt.requiredScopes()).containsExactly("read");
        AuthConfig.ApiKey key =
                (AuthConfig.ApiKey) config.routes().get(1).protection().auth();
        assertThat(key.header()).isEqualTo("X-Key");
        assertThat(key.queryParam()).isNull();
    }

    @Test
    void reportsWrongProtectionSettingsWithTheirLines() {
        assertThat(errors("routes:\n  - ipRules: { allow: [10.0.0.0/33] }\n" + ROUTE))
                .containsExactly("gw.yaml:2:14: route 'route-1' ipRules is invalid: allow: 10.0.0.0/33 (expected: a"
                        + " prefix length from 0 to 32 after the /)");
        assertThat(errors("routes:\n  - auth: { jwt: { jwksUrl: \"http://i/k\", algorithms: [HS256] } }\n" + ROUTE))
                .singleElement()
                .asString()
                .startsWith("gw.yaml:2:18: route 'route-1' auth jwt is invalid: algorithms: HS256 (expected:");
        assertThat(errors("routes:\n  - auth: { jwt: { jwksUrl: \"ftp://i/k\" } }\n" + ROUTE))
                .singleElement()
                .asString()
                .startsWith("gw.yaml:2:29: 'jwksUrl' must be an absolute http URL");
        assertThat(errors("routes:\n  - auth: { jwt: {}, basic: { users: {} } }\n" + ROUTE))
                .contains("gw.yaml:2:22: route 'route-1' auth has both 'jwt' and 'basic' (expected exactly one of jwt,"
                        + " apiKey, basic)");
        assertThat(errors("routes:\n  - auth: { basic: { users: {} }, failureLimit: { burst: 5 } }\n" + ROUTE))
                .singleElement()
                .asString()
                .contains("route 'route-1' auth failureLimit")
                .contains("'rate'");
        assertThat(errors("routes:\n  - auth: { basic: { users: { bob: plain } } }\n" + ROUTE))
                .singleElement()
                .asString()
                .startsWith("gw.yaml:2:20: route 'route-1' auth basic is invalid: credentials: bob: expected a bcrypt");
        assertThat(errors("routes:\n  - auth: { apiKey: { keysFile: missing.txt } }\n" + ROUTE))
                .singleElement()
                .asString()
                .startsWith("gw.yaml:2:33: 'keysFile' must name a readable file, got 'missing.txt'");
        assertThat(errors("routes:\n  - securityHeaders: { frameOptions: ALLOW }\n" + ROUTE))
                .containsExactly("gw.yaml:2:22: route 'route-1' securityHeaders is invalid: frameOptions: ALLOW"
                        + " (expected: DENY, SAMEORIGIN or empty)");
    }

    @Test
    void requiresAnAdminTokenOffLoopback() {
        assertThat(errors("admin: { host: 0.0.0.0, port: 9901 }\n"))
                .containsExactly("gw.yaml:1:1: the admin listener on 0.0.0.0 is not on loopback, so 'admin' needs a"
                        + " 'token' (expected: token: ${ADMIN_TOKEN}, or host: 127.0.0.1)");
        assertThat(errors("admin: { host: 0.0.0.0, token: short }\n"))
                .containsExactly("gw.yaml:1:32: 'token' must be at least 16 characters without spaces (expected: a"
                        + " random secret such as the output of openssl rand -hex 16)");
        assertThat(ConfigLoader.parse("admin: { host: 0.0.0.0, token: 0123456789abcdef }\n", "gw.yaml", Map.of())
                        .adminToken())
                .isEqualTo("0123456789abcdef");
    }
}
