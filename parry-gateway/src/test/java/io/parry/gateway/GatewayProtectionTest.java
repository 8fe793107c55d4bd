package io.parry.gateway;

import static org.assertj.core.api.Assertions.assertThat;

import com.nimbusds.jose.JWSAlgorithm;
import com.nimbusds.jose.JWSHeader;
import com.nimbusds.jose.crypto.ECDSASigner;
import com.nimbusds.jose.jwk.Curve;
import com.nimbusds.jose.jwk.ECKey;
import com.nimbusds.jose.jwk.JWKSet;
import com.nimbusds.jose.jwk.gen.ECKeyGenerator;
import com.nimbusds.jwt.JWTClaimsSet;
import com.nimbusds.jwt.SignedJWT;
import io.parry.http.HttpData;
import io.parry.http.HttpResponse;
import io.parry.http.HttpStatus;
import io.parry.http.MediaType;
import io.parry.server.Handler;
import io.parry.testing.ServerExtension;
import java.net.http.HttpRequest;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.security.MessageDigest;
import java.time.Duration;
import java.time.Instant;
import java.util.Date;
import java.util.HexFormat;
import java.util.Map;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;

/** Routes protected from the YAML: JWT, API keys, IP rules, CORS, security fields and the admin token. */
class GatewayProtectionTest {
    private static final ECKey KEY = newKey();
    private static final String API_KEY = "ci-0123456789abcdef";
    private static final String ADMIN_TOKEN = "0123456789abcdef0123";

    @RegisterExtension
    static final ServerExtension upstream = ServerExtension.of(Handler.sync((ctx, request) ->
            HttpResponse.ofText(request.target() + " user=" + request.headers().getAll("x-user") + " client="
                    + request.headers().get("x-client") + " key="
                    + request.headers().get("x-api-key"))));

    @RegisterExtension
    static final ServerExtension idp = ServerExtension.of(Handler.sync((ctx, request) ->
            HttpResponse.of(HttpStatus.OK, MediaType.JSON, HttpData.ofUtf8(new JWKSet(KEY.toPublicJWK()).toString()))));

    private static final String CONFIG =
            """
            accessLog: combined
            listener: { host: 127.0.0.1, port: 0 }
            admin: { host: 127.0.0.1, port: 0, token: "%s" }
            forwarding: { trustedProxies: [127.0.0.1] }
            upstreams:
              app: { endpoints: ["127.0.0.1:${APP_PORT}"] }
            defaults:
              securityHeaders: {}
              ipRules: { deny: [203.0.113.0/24] }
            routes:
              - name: private
                match: { prefix: /private }
                auth: { jwt: { jwksUrl: "http://127.0.0.1:${JWKS_PORT}/jwks", issuer: test, forwardClaims: { sub: X-User } } }
                proxy: { upstream: app }
              - name: keyed
                match: { prefix: /keyed }
                auth: { apiKey: { queryParam: api_key, keys: { ci: "sha256:%s" }, forwardClaims: { sub: X-Client } } }
                proxy: { upstream: app }
              - name: guarded
                match: { prefix: /guarded }
                auth:
                  apiKey: { keys: { ci: "sha256:%s" } }
                  failureLimit: { rate: 1, period: 1m, burst: 2 }
                proxy: { upstream: app }
              - name: office
                match: { prefix: /office }
                ipRules: { allow: ["2001:db8::/32", 198.51.100.0/24] }
                securityHeaders: off
                proxy: { upstream: app }
              - name: open
                match: { path: /open }
                cors: { allowOrigins: ["https://app.example"], allowMethods: [PUT] }
                respond: { body: hi }
            """
                    .formatted(ADMIN_TOKEN, sha256(API_KEY), sha256(API_KEY));

    private final BlockingQueue<String> lines = new LinkedBlockingQueue<>();

    @TempDir
    Path dir;

    @Test
    void passesVerifiedClaimsToTheUpstreamAndRefusesMissingTokensWithSecurityFields() throws Exception {
        try (TestGateway gateway = start()) {
            var refused = gateway.get("/private/orders");
            var admitted = gateway.send(HttpRequest.newBuilder(gateway.uri("/private/orders"))
                    .header("Authorization", "Bearer " + token())
                    .header("X-User", "mallory"));

            assertThat(refused.statusCode()).isEqualTo(401);
            assertThat(refused.headers().firstValue("www-authenticate")).hasValue("Bearer realm=\"parry\"");
            assertThat(refused.headers().firstValue("x-content-type-options")).hasValue("nosniff");
            assertThat(admitted.statusCode()).isEqualTo(200);
            assertThat(admitted.body()).isEqualTo("/private/orders user=[alice] client=null key=null");
        }
    }

    @Test
    void takesAnApiKeyOutOfTheForwardedQueryAndTheAccessLog() throws Exception {
        try (TestGateway gateway = start()) {
            var response = gateway.get("/keyed/x?a=1&api_key=" + API_KEY);

            assertThat(response.statusCode()).isEqualTo(200);
            assertThat(response.body()).isEqualTo("/keyed/x?a=1 user=[] client=ci key=null");
            String line = nextLine();
            assertThat(line)
                    .contains("GET /keyed/x?a=1&api_key=REDACTED HTTP/1.1")
                    .doesNotContain(API_KEY);
            assertThat(gateway.get("/keyed/x?api_key=guess").statusCode()).isEqualTo(401);
        }
    }

    @Test
    void refusesAClientPastItsAuthenticationFailuresBeforeItsKeyIsCheckedAndNotOtherClients() throws Exception {
        try (TestGateway gateway = start()) {
            assertThat(apiKey(gateway, "192.0.2.50", "guess-1").statusCode()).isEqualTo(401);
            assertThat(apiKey(gateway, "192.0.2.50", "guess-2").statusCode()).isEqualTo(401);
            var refused = apiKey(gateway, "192.0.2.50", "guess-3");
            assertThat(refused.statusCode()).isEqualTo(429);
            assertThat(refused.headers().firstValue("retry-after")).hasValue("60");
            assertThat(apiKey(gateway, "192.0.2.50", API_KEY).statusCode()).isEqualTo(429);
            assertThat(apiKey(gateway, "192.0.2.51", API_KEY).statusCode()).isEqualTo(200);
        }
    }

    @Test
    void appliesIpRulesToTheClientBehindTrustedProxiesWithRouteRulesReplacingDefaults() throws Exception {
        try (TestGateway gateway = start()) {
            assertThat(forwardedFor(gateway, "/open", "203.0.113.9").statusCode())
                    .isEqualTo(403);
            assertThat(forwardedFor(gateway, "/open", "192.0.2.1").statusCode()).isEqualTo(200);
            var office = forwardedFor(gateway, "/office/a", "2001:db8::7");
            assertThat(office.statusCode()).isEqualTo(200);
            assertThat(office.headers().firstValue("x-frame-options")).isEmpty();
            assertThat(gateway.get("/office/a").statusCode()).isEqualTo(403);
            assertThat(forwardedFor(gateway, "/office/a", "198.51.100.20, 2001:db9::1")
                            .statusCode())
                    .isEqualTo(403);
        }
    }

    @Test
    void answersCorsPreflightsFromTheYaml() throws Exception {
        try (TestGateway gateway = start()) {
            var preflight = gateway.send(HttpRequest.newBuilder(gateway.uri("/open"))
                    .method("OPTIONS", HttpRequest.BodyPublishers.noBody())
                    .header("Origin", "https://app.example")
                    .header("Access-Control-Request-Method", "PUT"));

            assertThat(preflight.statusCode()).isEqualTo(204);
            assertThat(preflight.headers().firstValue("access-control-allow-origin"))
                    .hasValue("https://app.example");
        }
    }

    @Test
    void requiresTheAdminTokenWhenOneIsConfigured() throws Exception {
        try (TestGateway gateway = start()) {
            var refused = gateway.admin("/admin/routes");
            var admitted = gateway.send(HttpRequest.newBuilder(gateway.adminUri("/admin/routes"))
                    .header("Authorization", "Bearer " + ADMIN_TOKEN));

            assertThat(refused.statusCode()).isEqualTo(401);
            assertThat(refused.headers().firstValue("www-authenticate")).hasValue("Bearer realm=\"parry-admin\"");
            assertThat(admitted.statusCode()).isEqualTo(200);
        }
    }

    @Test
    void reloadsProtectionWithTheRoutes() throws Exception {
        try (TestGateway gateway = start()) {
            assertThat(gateway.get("/open").statusCode()).isEqualTo(200);

            gateway.writeFile(CONFIG.replace("deny: [203.0.113.0/24]", "deny: [127.0.0.0/8]"));
            assertThat(gateway.gateway().reload().applied()).isTrue();

            assertThat(gateway.get("/open").statusCode()).isEqualTo(403);
        }
    }

    private TestGateway start() {
        return TestGateway.start(
                dir,
                CONFIG,
                Map.of("APP_PORT", Integer.toString(upstream.port()), "JWKS_PORT", Integer.toString(idp.port())),
                builder -> builder.accessLogSink(lines::add));
    }

    private static java.net.http.HttpResponse<String> forwardedFor(TestGateway gateway, String path, String client) {
        return gateway.send(HttpRequest.newBuilder(gateway.uri(path)).header("X-Forwarded-For", client));
    }

    private static java.net.http.HttpResponse<String> apiKey(TestGateway gateway, String client, String key) {
        return gateway.send(HttpRequest.newBuilder(gateway.uri("/guarded/a"))
                .header("X-Forwarded-For", client)
                .header("X-Api-Key", key));
    }

    private String nextLine() throws InterruptedException {
        String line = lines.poll(10, TimeUnit.SECONDS);
        assertThat(line).as("an access log line").isNotNull();
        return line;
    }

    private static String token() throws Exception {
        JWTClaimsSet claims = new JWTClaimsSet.Builder()
                .issuer("test")
                .subject("alice")
                .expirationTime(Date.from(Instant.now().plus(Duration.ofMinutes(5))))
                .build();
        SignedJWT jwt = new SignedJWT(
                new JWSHeader.Builder(JWSAlgorithm.ES256).keyID("k1").build(), claims);
        jwt.sign(new ECDSASigner(KEY));
        return jwt.serialize();
    }

    private static ECKey newKey() {
        try {
            return new ECKeyGenerator(Curve.P_256).keyID("k1").generate();
        } catch (Exception e) {
            throw new IllegalStateException(e);
        }
    }

    private static String sha256(String text) {
        try {
            return HexFormat.of()
                    .formatHex(MessageDigest.getInstance("SHA-256").digest(text.getBytes(StandardCharsets.UTF_8)));
        } catch (Exception e) {
            throw new IllegalStateException(e);
        }
    }
}
