package io.parry.auth;

import static org.assertj.core.api.Assertions.assertThat;

import com.nimbusds.jose.JWSAlgorithm;
import com.nimbusds.jose.jwk.ECKey;
import com.nimbusds.jose.jwk.JWKSet;
import io.parry.auth.internal.TokenVerifier;
import java.util.Set;
import org.junit.jupiter.api.Test;

/** Forged tokens with a known {@code kid} are remembered as refused without pushing verified tokens out. */
class ForgedTokenFloodTest {

    @Test
    void keepsAVerifiedTokenCachedThroughAFloodOfForgedTokensWithItsKeyId() {
        ECKey key = KeyServer.newKey("k1");
        ECKey forger = KeyServer.newKey("k1");
        TokenVerifier verifier = new TokenVerifier(
                JwksSource.ofJson(new JWKSet(key.toPublicJWK()).toString()),
                Set.of(JWSAlgorithm.ES256),
                KeyServer.ISSUER,
                Set.of(KeyServer.AUDIENCE),
                60_000,
                8192,
                // One entry: any forged token remembered in the same cache would push the verified one out.
                1);
        String good = KeyServer.token(key, claims -> {});
        TokenVerifier.Outcome verified =
                verifier.verify(good).toCompletableFuture().join();

        for (int i = 0; i < 10; i++) {
            String subject = "mallory-" + i;
            assertThat(verifier.verify(KeyServer.token(forger, claims -> claims.subject(subject)))
                            .toCompletableFuture()
                            .join())
                    .isInstanceOf(TokenVerifier.Invalid.class);
        }

        assertThat(verified).isInstanceOf(TokenVerifier.Verified.class);
        assertThat(verifier.verify(good).toCompletableFuture().join()).isSameAs(verified);
    }
}
