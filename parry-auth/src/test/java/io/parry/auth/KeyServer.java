package io.parry.auth;

import com.nimbusds.jose.JOSEException;
import com.nimbusds.jose.JWSAlgorithm;
import com.nimbusds.jose.JWSHeader;
import com.nimbusds.jose.crypto.ECDSASigner;
import com.nimbusds.jose.jwk.Curve;
import com.nimbusds.jose.jwk.ECKey;
import com.nimbusds.jose.jwk.JWK;
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
import java.net.URI;
import java.time.Duration;
import java.time.Instant;
import java.util.Date;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicReference;
import java.util.function.Consumer;

/** An identity provider for tests: a real Parry server serving a JWK Set that can rotate, and a token minter. */
final class KeyServer implements AutoCloseable {
    static final String ISSUER = "https://idp.test";
    static final String AUDIENCE = "orders";

    private final AtomicReference<List<JWK>> published = new AtomicReference<>();
    private final AtomicInteger fetches = new AtomicInteger();
    private final AtomicBoolean stalled = new AtomicBoolean();
    private final Server server;

    KeyServer(ECKey... keys) {
        published.set(List.of(keys));
        Handler jwks = (ctx, request) -> {
            fetches.incrementAndGet();
            if (stalled.get()) {
                return new CompletableFuture<>();
            }
            String json = new JWKSet(published.get()).toPublicJWKSet().toString();
            return HttpResponse.of(HttpStatus.OK, MediaType.parse("application/json"), HttpData.ofUtf8(json))
                    .toStage();
        };
        server = Server.of(ServerOptions.builder().host("127.0.0.1").port(0).build(), jwks)
                .start();
    }

    static ECKey newKey(String keyId) {
        try {
            return new ECKeyGenerator(Curve.P_256).keyID(keyId).generate();
        } catch (JOSEException e) {
            throw new IllegalStateException(e);
        }
    }

    URI url() {
        return URI.create("http://127.0.0.1:" + server.port() + "/.well-known/jwks.json");
    }

    void publish(ECKey... keys) {
        published.set(List.of(keys));
    }

    /** From now on, fetches of the key set get no answer, as from an identity provider that hangs. */
    void stall() {
        stalled.set(true);
    }

    int fetches() {
        return fetches.get();
    }

    /** A token signed with the key, valid for an hour, with the test's issuer and audience and these edits. */
    static String token(ECKey key, Consumer<JWTClaimsSet.Builder> edits) {
        Instant now = Instant.now();
        JWTClaimsSet.Builder claims = new JWTClaimsSet.Builder()
                .issuer(ISSUER)
                .audience(AUDIENCE)
                .subject("alice")
                .issueTime(Date.from(now))
                .expirationTime(Date.from(now.plus(Duration.ofHours(1))))
                .claim("scope", "orders:read profile");
        edits.accept(claims);
        try {
            SignedJWT jwt = new SignedJWT(
                    new JWSHeader.Builder(JWSAlgorithm.ES256)
                            .keyID(key.getKeyID())
                            .build(),
                    claims.build());
            jwt.sign(new ECDSASigner(key));
            return jwt.serialize();
        } catch (JOSEException e) {
            throw new IllegalStateException(e);
        }
    }

    @Override
    public void close() {
        server.stop(Duration.ofSeconds(2));
    }
}
