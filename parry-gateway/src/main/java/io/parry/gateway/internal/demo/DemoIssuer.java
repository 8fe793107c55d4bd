package io.parry.gateway.internal.demo;

import com.nimbusds.jose.JOSEException;
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
import io.parry.server.Server;
import io.parry.server.ServerOptions;
import java.time.Duration;
import java.time.Instant;
import java.util.Date;

/**
 * The demo's token issuer: an EC P-256 key made at start, its public JWK Set served on its own port
 * ({@code /.well-known/jwks.json}), and a token for the demo's JWT-protected route. A stand-in for an
 * identity provider, so that {@code /api/private} can be tried with one curl.
 */
final class DemoIssuer {
    static final String ISSUER = "parry-demo";
    static final String SCOPE = "demo:read";

    private final Server server;
    private final LateHandler handler;
    private volatile ECKey key;

    private DemoIssuer(Server server, LateHandler handler) {
        this.server = server;
        this.handler = handler;
    }

    /** Listens on 127.0.0.1 and a free port; fetches of the key set wait for {@link #makeKey()}. */
    static DemoIssuer bind() {
        LateHandler handler = new LateHandler();
        Server server = Server.of(
                        ServerOptions.builder()
                                .host("127.0.0.1")
                                .port(0)
                                .eventLoopThreads(1)
                                .build(),
                        handler)
                .start();
        return new DemoIssuer(server, handler);
    }

    int port() {
        return server.port();
    }

    /** Makes the signing key and serves its JWK Set. */
    void makeKey() {
        ECKey made;
        try {
            made = new ECKeyGenerator(Curve.P_256)
                    .keyID("demo-" + Long.toHexString(System.currentTimeMillis()))
                    .generate();
        } catch (JOSEException e) {
            IllegalStateException failure = new IllegalStateException("cannot make the demo's signing key", e);
            handler.fail(failure);
            throw failure;
        }
        key = made;
        HttpData jwks = HttpData.ofUtf8(new JWKSet(made.toPublicJWK()).toString());
        MediaType type = MediaType.parse("application/jwk-set+json");
        handler.complete(Handler.sync((ctx, request) -> HttpResponse.of(HttpStatus.OK, type, jwks)));
    }

    /** A token for the demo's private route, valid for a day; once {@link #makeKey()} returned. */
    String token() {
        Instant now = Instant.now();
        JWTClaimsSet claims = new JWTClaimsSet.Builder()
                .issuer(ISSUER)
                .audience(ISSUER)
                .subject("demo-user")
                .claim("scope", SCOPE)
                .issueTime(Date.from(now))
                .expirationTime(Date.from(now.plus(Duration.ofDays(1))))
                .build();
        try {
            SignedJWT jwt = new SignedJWT(
                    new JWSHeader.Builder(JWSAlgorithm.ES256)
                            .keyID(key.getKeyID())
                            .build(),
                    claims);
            jwt.sign(new ECDSASigner(key));
            return jwt.serialize();
        } catch (JOSEException e) {
            throw new IllegalStateException("cannot sign the demo's token", e);
        }
    }

    void stop() {
        server.stop(Duration.ofSeconds(1));
    }
}
