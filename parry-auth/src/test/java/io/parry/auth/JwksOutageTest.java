package io.parry.auth;

import static org.assertj.core.api.Assertions.assertThat;

import com.nimbusds.jose.jwk.JWK;
import io.parry.client.HttpClient;
import java.time.Duration;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

/** An identity provider that hangs costs the requests nothing once its keys are known, and gets one fetch at a time. */
class JwksOutageTest {

    @Test
    void answersKnownKeysAtOnceAndStartsNoSecondFetchWhileTheIdentityProviderHangs() throws Exception {
        try (KeyServer idp = new KeyServer(KeyServer.newKey("k1"));
                HttpClient client = HttpClient.ofDefault()) {
            JwksSource keys = JwksSource.builder(idp.url())
                    .client(client)
                    .refreshInterval(Duration.ofMillis(1))
                    .minRefreshInterval(Duration.ZERO)
                    .timeout(Duration.ofMinutes(1))
                    .build();
            assertThat(keys.key("k1").toCompletableFuture().get(10, TimeUnit.SECONDS))
                    .isNotNull();
            idp.stall();

            // The set is soon stale: a look-up then starts a fetch in the background, which hangs.
            long fetched = keys.fetches();
            while (keys.fetches() == fetched) {
                CompletableFuture<JWK> known = keys.key("k1").toCompletableFuture();
                assertThat(known).isCompleted();
                assertThat(known.join().getKeyID()).isEqualTo("k1");
            }
            for (int i = 0; i < 100; i++) {
                assertThat(keys.key("k1").toCompletableFuture()).isCompleted();
                assertThat(keys.key("made-up-" + i).toCompletableFuture()).isNotCompleted();
            }
            assertThat(keys.fetches()).isEqualTo(fetched + 1);
        }
    }
}
