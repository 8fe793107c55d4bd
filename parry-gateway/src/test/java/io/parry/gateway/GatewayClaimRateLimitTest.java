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
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.Date;
import java.util.Map;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;

/** A rate limit keyed by a claim of a verified JWT: a bucket per claim value, one shared bucket for tokens without it. */
class GatewayClaimRateLimitTest {
    private static final ECKey KEY = newKey();

    @RegisterExtension
    static final ServerExtension idp = ServerExtension.of(Handler.sync((ctx, request) ->
            HttpResponse.of(HttpStatus.OK, MediaType.JSON, HttpData.ofUtf8(new JWKSet(KEY.toPublicJWK()).toString()))));

    private static final String CONFIG =
            """
            listener: { host: 127.0.0.1, port: 0 }
            admin: { host: 127.0.0.1, port: 0 }
            routes:
              - name: tenants
                match: { prefix: /tenants }
                auth: { jwt: { jwksUrl: "http://127.0.0.1:${JWKS_PORT}/jwks", issuer: test } }
                rateLimit: { rate: 2, period: 1h, key: "claim:tenant" }
                respond: { body: ok }
            """;

    @TempDir
    static Path dir;

    private static TestGateway gateway;

    @BeforeAll
    static void startGateway() {
        gateway = TestGateway.start(dir, CONFIG, Map.of("JWKS_PORT", Integer.toString(idp.port())));
    }

    @AfterAll
    static void stopGateway() {
        gateway.close();
    }

    @Test
    void givesEachTenantItsOwnBucketAndTokensWithoutTheClaimOneSharedBucket() throws Exception {
        String acme = token("alice", "acme");
        String acmeToo = token("bob", "acme");
        String globex = token("carol", "globex");

        assertThat(status("/tenants/a", acme)).isEqualTo(200);
        assertThat(status("/tenants/b", acmeToo)).isEqualTo(200);
        assertThat(status("/tenants/c", acme)).isEqualTo(429);
        assertThat(status("/tenants/d", globex)).isEqualTo(200);

        assertThat(status("/tenants/e", token("dave", null))).isEqualTo(200);
        assertThat(status("/tenants/f", token("erin", null))).isEqualTo(200);
        assertThat(status("/tenants/g", token("frank", null))).isEqualTo(429);
        assertThat(status("/tenants/h", globex)).isEqualTo(200);
    }

    @Test
    void refusesARequestWithoutATokenBeforeTheLimitSeesIt() {
        assertThat(gateway.get("/tenants/x").statusCode()).isEqualTo(401);
    }

    private static int status(String path, String token) {
        return gateway.send(HttpRequest.newBuilder(gateway.uri(path)).header("Authorization", "Bearer " + token))
                .statusCode();
    }

    private static String token(String subject, String tenant) throws Exception {
        JWTClaimsSet.Builder claims = new JWTClaimsSet.Builder()
                .issuer("test")
                .subject(subject)
                .expirationTime(Date.from(Instant.now().plus(Duration.ofMinutes(5))));
        if (tenant != null) {
            claims.claim("tenant", tenant);
        }
        SignedJWT jwt = new SignedJWT(
                new JWSHeader.Builder(JWSAlgorithm.ES256).keyID("k1").build(), claims.build());
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
}
