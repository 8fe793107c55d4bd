package io.parry.auth;

import static org.assertj.core.api.Assertions.assertThat;

import io.parry.auth.internal.SecretHash;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.Executor;
import org.junit.jupiter.api.Test;

class SecretChecksTest {
    private final List<Runnable> held = new ArrayList<>();
    private final Executor holding = held::add;
    private final Credentials keys = Credentials.of(Map.of("ci", "sha256:" + SecretHash.sha256Hex("right")));

    @Test
    void refusesNewGuessesAtOnceWhileAsManyChecksAsAllowedRun() {
        SecretChecks checks = new SecretChecks(keys, holding, 1, 100, 60_000_000_000L);

        CompletableFuture<SecretChecks.Verdict> first =
                checks.check("a", hashes -> "ci").toCompletableFuture();
        CompletableFuture<SecretChecks.Verdict> second =
                checks.check("b", hashes -> "ci").toCompletableFuture();

        assertThat(first).isNotDone();
        assertThat(second).isCompletedWithValue(SecretChecks.BUSY);
        held.forEach(Runnable::run);
        assertThat(first.join().name()).isEqualTo("ci");
        assertThat(checks.check("b", hashes -> null).toCompletableFuture()).isNotDone();
    }

    @Test
    void remembersBadVerdictsSoARepeatedGuessCostsNoHash() {
        SecretChecks checks = new SecretChecks(keys, holding, 4, 100, 60_000_000_000L);
        checks.check("guess", hashes -> null);
        held.forEach(Runnable::run);
        held.clear();

        CompletableFuture<SecretChecks.Verdict> again =
                checks.check("guess", hashes -> null).toCompletableFuture();

        assertThat(again).isDone();
        assertThat(again.join().name()).isNull();
        assertThat(held).isEmpty();
    }

    /** A browser's parallel requests after a login bring the same new password: one hash, not one each. */
    @Test
    void sharesOneCheckAmongRequestsThatBringTheSameNewSecretAtOnce() {
        SecretChecks checks = new SecretChecks(keys, holding, 2, 100, 60_000_000_000L);

        List<CompletableFuture<SecretChecks.Verdict>> parallel = new ArrayList<>();
        for (int i = 0; i < 6; i++) {
            parallel.add(checks.check("alice", hashes -> "alice").toCompletableFuture());
        }

        assertThat(held).hasSize(1);
        held.forEach(Runnable::run);
        assertThat(parallel)
                .allSatisfy(verdict -> assertThat(verdict.join().name()).isEqualTo("alice"));
        assertThat(checks.check("other", hashes -> null).toCompletableFuture()).isNotDone();
    }
}
