package io.parry.gateway.internal.admin;

import static java.util.Objects.requireNonNull;

import io.parry.server.health.Health;
import io.parry.server.health.HealthCheck;
import io.parry.server.health.HealthStatus;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.function.BooleanSupplier;
import java.util.function.LongSupplier;

/**
 * The gateway's liveness and readiness checks: the embedder's, collected while the gateway is built,
 * after the gateway's own readiness checks {@value #SERVER} (down from the moment a stop begins) and
 * {@value #CONFIG} (down until a configuration is live; its detail names the version). Not
 * thread-safe while collecting; the {@link Health} it builds is.
 */
public final class GatewayHealth {
    static final String SERVER = "server";
    static final String CONFIG = "config";
    private static final Duration OWN_TIMEOUT = Duration.ofSeconds(1);

    private final List<Check> liveness = new ArrayList<>();
    private final List<Check> readiness = new ArrayList<>();
    // Checks each added check as the real builder will, so a bad one fails where it is added.
    private final Health.Builder validation =
            Health.builder().readiness(SERVER, up(), OWN_TIMEOUT).readiness(CONFIG, up(), OWN_TIMEOUT);

    /**
     * Adds a liveness check.
     *
     * @throws IllegalArgumentException if the name is empty or taken by another liveness check, or the
     *     timeout is not positive
     */
    public void liveness(String name, HealthCheck check, Duration timeout) {
        validation.liveness(name, check, timeout);
        liveness.add(new Check(name, check, timeout));
    }

    /**
     * Adds a readiness check.
     *
     * @throws IllegalArgumentException if the name is empty, {@value #SERVER}, {@value #CONFIG} or taken
     *     by another readiness check, or the timeout is not positive
     */
    public void readiness(String name, HealthCheck check, Duration timeout) {
        validation.readiness(name, check, timeout);
        readiness.add(new Check(name, check, timeout));
    }

    /**
     * The checks, the gateway's own first.
     *
     * @param draining whether the gateway has begun to stop
     * @param version the live configuration's version, 0 before the first is applied
     */
    public Health build(BooleanSupplier draining, LongSupplier version) {
        requireNonNull(draining, "draining");
        requireNonNull(version, "version");
        Health.Builder health = Health.builder()
                .readiness(
                        SERVER,
                        () -> now(draining.getAsBoolean() ? HealthStatus.down("draining") : HealthStatus.up()),
                        OWN_TIMEOUT)
                .readiness(CONFIG, () -> now(configStatus(version.getAsLong())), OWN_TIMEOUT);
        liveness.forEach(check -> health.liveness(check.name(), check.check(), check.timeout()));
        readiness.forEach(check -> health.readiness(check.name(), check.check(), check.timeout()));
        return health.build();
    }

    private static HealthStatus configStatus(long version) {
        return version > 0 ? HealthStatus.up("version " + version) : HealthStatus.down("no configuration applied yet");
    }

    private static HealthCheck up() {
        return () -> now(HealthStatus.up());
    }

    private static CompletableFuture<HealthStatus> now(HealthStatus status) {
        return CompletableFuture.completedFuture(status);
    }

    private record Check(String name, HealthCheck check, Duration timeout) {}
}
