package io.parry.auth;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.nimbusds.jose.JWSAlgorithm;
import com.nimbusds.jose.JWSHeader;
import com.nimbusds.jose.JWSObject;
import com.nimbusds.jose.Payload;
import com.nimbusds.jose.crypto.ECDSASigner;
import com.nimbusds.jose.crypto.MACSigner;
import com.nimbusds.jose.jwk.ECKey;
import com.nimbusds.jwt.JWTClaimsSet;
import com.nimbusds.jwt.PlainJWT;
import com.nimbusds.jwt.SignedJWT;
import io.parry.client.HttpClient;
import io.parry.http.HttpResponse;
import io.parry.server.Handler;
import io.parry.server.Server;
import io.parry.server.ServerOptions;
import java.net.URI;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse.BodyHandlers;
import java.time.Duration;
import java.time.Instant;
import java.util.Date;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

class JwtFilterTest {
    private static final ECKey FIRST = KeyServer.newKey("k1");
    private static final java.net.http.HttpClient browser = java.net.http.HttpClient.newBuilder()
            .version(java.net.http.HttpClient.Version.HTTP_1_1)
            .build();
    private static KeyServer idp;
    private static HttpClient client;
    private static Server app;
    private static JwksSource keys;

    @BeforeAll
    static void start() {
        idp = new KeyServer(FIRST);
        client = HttpClient.ofDefault();
        keys = JwksSource.builder(idp.url())
                .client(client)
                .minRefreshInterval(Duration.ofHours(1))
                .build();
        JwksSource eager = JwksSource.builder(idp.url())
                .client(client)
                .minRefreshInterval(Duration.ZERO)
                .build();
        Handler echo = Handler.sync((ctx, request) -> {
            Identity identity = Identity.of(ctx).orElseThrow();
            return HttpResponse.ofText(
                    identity.subject() + "|" + request.headers().getAll("x-user-id") + "|"
                            + identity.scopes().contains("orders:read"));
        });
        JwtFilter jwt = JwtFilter.builder(keys)
                .issuer(KeyServer.ISSUER)
                .audiences(List.of(KeyServer.AUDIENCE))
                .clockSkew(Duration.ofSeconds(5))
                .forwardClaims(Map.of("sub", "x-user-id"))
                .build();
        JwtFilter admin = JwtFilter.builder(keys)
                .issuer(KeyServer.ISSUER)
                .requiredScopes(List.of("orders:write"))
                .build();
        JwtFilter rotating = JwtFilter.builder(eager).issuer(KeyServer.ISSUER).build();
        Handler routes = (ctx, request) -> switch (request.path()) {
            case "/admin" -> echo.with(admin).handle(ctx, request);
            case "/rotating" -> echo.with(rotating).handle(ctx, request);
            default -> echo.with(jwt).handle(ctx, request);
        };
        app = Server.of(ServerOptions.builder().host("127.0.0.1").port(0).build(), routes)
                .start();
    }

    @AfterAll
    static void stop() throws Exception {
        app.stop(Duration.ofSeconds(2));
        client.close();
        idp.close();
    }

    @Test
    void handsTheVerifiedIdentityToTheHandlerAndForwardsClaimsInsteadOfTheClientsCopies() throws Exception {
        String token = KeyServer.token(FIRST, claims -> {});

        java.net.http.HttpResponse<String> response = send("/orders", "Bearer " + token, "x-user-id", "mallory");

        assertThat(response.statusCode()).isEqualTo(200);
        assertThat(response.body()).isEqualTo("alice|[alice]|true");
    }

    @Test
    void asksForATokenWithoutAnErrorCodeWhenThereIsNone() throws Exception {
        java.net.http.HttpResponse<String> response = send("/orders", null);

        assertThat(response.statusCode()).isEqualTo(401);
        assertThat(response.headers().firstValue("www-authenticate")).hasValue("Bearer realm=\"parry\"");
        assertThat(response.headers().firstValue("content-type")).hasValue("application/problem+json");
    }

    @Test
    void refusesExpiredNotYetValidAndForeignTokensWithInvalidToken() throws Exception {
        Instant now = Instant.now();
        assertInvalid(KeyServer.token(FIRST, c -> c.expirationTime(Date.from(now.minusSeconds(60)))), "token expired");
        assertInvalid(
                KeyServer.token(FIRST, c -> c.notBeforeTime(Date.from(now.plusSeconds(60)))), "token not yet valid");
        assertInvalid(KeyServer.token(FIRST, c -> c.expirationTime(null)), "token has no expiry");
        assertInvalid(KeyServer.token(FIRST, c -> c.issuer("https://evil.test")), "wrong issuer");
        assertInvalid(KeyServer.token(FIRST, c -> c.audience("billing")), "wrong audience");
        assertInvalid("garbage", "malformed token");
        assertInvalid("a.b.c", "malformed token");
        assertInvalid("x".repeat(9000), "malformed token");
    }

    @Test
    void acceptsTokensWithinTheClockSkew() throws Exception {
        Instant now = Instant.now();
        String token = KeyServer.token(FIRST, c -> c.expirationTime(Date.from(now.minusSeconds(2))));

        assertThat(send("/orders", "Bearer " + token).statusCode()).isEqualTo(200);
    }

    @Test
    void refusesNoneAndHmacTokensEvenWithThePublicKeyAsSecret() throws Exception {
        JWTClaimsSet claims = new JWTClaimsSet.Builder()
                .issuer(KeyServer.ISSUER)
                .audience(KeyServer.AUDIENCE)
                .subject("mallory")
                .expirationTime(Date.from(Instant.now().plusSeconds(600)))
                .build();
        assertInvalid(new PlainJWT(claims).serialize(), "malformed token");
        String unsignedWithDot = new PlainJWT(claims).serialize() + "c2ln";
        assertInvalid(unsignedWithDot, "malformed token");

        byte[] publicKeyAsSecret = FIRST.toPublicJWK().toJSONString().getBytes();
        JWSObject hmac = new JWSObject(
                new JWSHeader.Builder(JWSAlgorithm.HS256).keyID("k1").build(), new Payload(claims.toJSONObject()));
        hmac.sign(new MACSigner(publicKeyAsSecret));
        assertInvalid(hmac.serialize(), "algorithm not allowed");
    }

    @Test
    void refusesATokenSignedByAnotherKeyUnderAKnownKeyId() throws Exception {
        ECKey impostor = KeyServer.newKey("k1");

        assertInvalid(KeyServer.token(impostor, c -> {}), "invalid signature");
        assertInvalid(KeyServer.token(impostor, c -> {}), "invalid signature");
    }

    @Test
    void answersMissingScopesWith403InsufficientScope() throws Exception {
        java.net.http.HttpResponse<String> response = send("/admin", "Bearer " + KeyServer.token(FIRST, c -> {}));

        assertThat(response.statusCode()).isEqualTo(403);
        assertThat(response.headers().firstValue("www-authenticate"))
                .hasValue("Bearer realm=\"parry\", error=\"insufficient_scope\", scope=\"orders:write\"");
        String writer = KeyServer.token(FIRST, c -> c.claim("scp", List.of("orders:write")));
        assertThat(send("/admin", "Bearer " + writer).statusCode()).isEqualTo(200);
    }

    @Test
    void fetchesTheKeySetAgainWhenATokenNamesAKeyItLacks() throws Exception {
        ECKey rotated = KeyServer.newKey("k2");
        assertThat(send("/rotating", "Bearer " + KeyServer.token(FIRST, c -> {}))
                        .statusCode())
                .isEqualTo(200);
        idp.publish(FIRST, rotated);

        assertThat(send("/rotating", "Bearer " + KeyServer.token(rotated, c -> {}))
                        .statusCode())
                .isEqualTo(200);
        idp.publish(FIRST);
    }

    @Test
    void fetchesNoMoreThanOncePerMinimumIntervalWhateverKeyIdsTokensName() throws Exception {
        assertThat(send("/orders", "Bearer " + KeyServer.token(FIRST, c -> {})).statusCode())
                .isEqualTo(200);
        long fetchesBefore = keys.fetches();

        for (int i = 0; i < 20; i++) {
            assertInvalid(KeyServer.token(KeyServer.newKey("made-up-" + i), c -> {}), "unknown signing key");
        }
        assertThat(keys.fetches()).isEqualTo(fetchesBefore).isLessThanOrEqualTo(1);
    }

    /**
     * RFC 7515, section 4.1.11: a header parameter marked critical that the verifier does not
     * understand refuses the token; none is understood here, so it is refused before any signature work.
     */
    @Test
    void refusesATokenWithACriticalHeaderParameterBeforeCheckingItsSignature() throws Exception {
        JWSHeader header = new JWSHeader.Builder(JWSAlgorithm.ES256)
                .keyID(FIRST.getKeyID())
                .criticalParams(Set.of("x-must-understand"))
                .customParam("x-must-understand", true)
                .build();
        SignedJWT jwt = new SignedJWT(
                header, SignedJWT.parse(KeyServer.token(FIRST, c -> {})).getJWTClaimsSet());
        jwt.sign(new ECDSASigner(FIRST));

        assertInvalid(jwt.serialize(), "unsupported critical header parameter");
    }

    @Test
    void refusesHmacAndNoneWhenBuilt() {
        assertThatThrownBy(() ->
                        JwtFilter.builder(keys).algorithms(List.of("HS256")).build())
                .hasMessageStartingWith("algorithms: HS256 (expected: RS256");
        assertThatThrownBy(() ->
                        JwtFilter.builder(keys).algorithms(List.of("none")).build())
                .hasMessageStartingWith("algorithms: none (expected:");
    }

    private static void assertInvalid(String token, String description) throws Exception {
        java.net.http.HttpResponse<String> response = send("/orders", "Bearer " + token);
        assertThat(response.statusCode()).as(description).isEqualTo(401);
        assertThat(response.headers().firstValue("www-authenticate"))
                .hasValue("Bearer realm=\"parry\", error=\"invalid_token\", error_description=\"" + description + "\"");
    }

    private static java.net.http.HttpResponse<String> send(String path, String authorization, String... headers)
            throws Exception {
        HttpRequest.Builder request = HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + app.port() + path));
        if (authorization != null) {
            request.header("Authorization", authorization);
        }
        if (headers.length > 0) {
            request.headers(headers);
        }
        return browser.send(request.build(), BodyHandlers.ofString());
    }
}
