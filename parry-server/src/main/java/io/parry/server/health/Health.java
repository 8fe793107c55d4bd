package io.parry.server.health;

import static java.util.Objects.requireNonNull;

import io.parry.server.Handler;
import io.parry.server.Server;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;

/**
 * An application's liveness and readiness checks. Liveness says whether the process works at all
 * (restart it if not); readiness says whether it should get traffic now (a draining server, a
 * database not reachable yet). Immutable and thread-safe.
 *
 * <pre>{@code
 * Health health = Health.builder()
 *         .liveness("loops", () -> CompletableFuture.completedFuture(HealthStatus.up()), Duration.ofSeconds(1))
 *         .readiness("db", HealthCheck.blocking(this::pingDatabase, pool), Duration.ofSeconds(2))
 *         .readinessOf(server)
 *         .build();
 * Router admin = Router.builder()
 *         .get("/health/live", health.livenessHandler())
 *         .get("/health/ready", health.readinessHandler())
 *         .build();
 * }</pre>
 *
 * <p>Each round starts every check of its kind at once, so they run in parallel, and bounds each by
 * its timeout; a check that fails, times out or returns nothing is down, with a detail that says so.
 */
public final class Health {
    private final List<NamedCheck> liveness;
    private final List<NamedCheck> readiness;

    private Health(Builder builder) {
        this.liveness = List.copyOf(builder.liveness);
        this.readiness = List.copyOf(builder.readiness);
    }

    /** A builder with no checks. */
    public static Builder builder() {
        return new Builder();
    }

    /**
     * Runs the liveness checks. The stage never fails; it completes on the thread that completes the
     * last check (a timeout completes on the JDK's timer thread).
     */
    public CompletionStage<HealthReport> liveness() {
        return run(liveness);
    }

    /** Runs the readiness checks, as {@link #liveness()} does the liveness checks. */
    public CompletionStage<HealthReport> readiness() {
        return run(readiness);
    }

    /**
     * A handler that runs the liveness checks and answers 200 when all are up, else 503, with the
     * report as JSON ({@link HealthReport#toJson()}).
     */
    public Handler livenessHandler() {
        return (ctx, request) -> liveness().thenApply(HealthReport::toResponse);
    }

    /** A handler that runs the readiness checks and answers as {@link #livenessHandler()} does. */
    public Handler readinessHandler() {
        return (ctx, request) -> readiness().thenApply(HealthReport::toResponse);
    }

    private static CompletionStage<HealthReport> run(List<NamedCheck> checks) {
        List<CompletableFuture<CheckResult>> running = new ArrayList<>(checks.size());
        for (NamedCheck check : checks) {
            running.add(check.run());
        }
        return CompletableFuture.allOf(running.toArray(new CompletableFuture<?>[0]))
                .thenApply(done -> {
                    List<CheckResult> results = new ArrayList<>(running.size());
                    running.forEach(result -> results.add(result.join()));
                    return new HealthReport(results);
                });
    }

    @Override
    public String toString() {
        return "Health(liveness " + names(liveness) + ", readiness " + names(readiness) + ")";
    }

    private static List<String> names(List<NamedCheck> checks) {
        List<String> names = new ArrayList<>(checks.size());
        checks.forEach(check -> names.add(check.name()));
        return names;
    }

    /** Builds a {@link Health}; not thread-safe. */
    public static final class Builder {
        private final List<NamedCheck> liveness = new ArrayList<>();
        private final List<NamedCheck> readiness = new ArrayList<>();

        private Builder() {}

        /**
         * Adds a liveness check.
         *
         * @throws IllegalArgumentException if the name is empty or taken by another liveness check, or
         *     the timeout is not positive
         */
        public Builder liveness(String name, HealthCheck check, Duration timeout) {
            liveness.add(checked(liveness, name, check, timeout));
            return this;
        }

        /**
         * Adds a readiness check.
         *
         * @throws IllegalArgumentException if the name is empty or taken by another readiness check,
         *     or the timeout is not positive
         */
        public Builder readiness(String name, HealthCheck check, Duration timeout) {
            readiness.add(checked(readiness, name, check, timeout));
            return this;
        }

        /**
         * Adds the readiness check {@code server}, down from the moment the server begins to stop
         * ({@link Server#isDraining()}), so load balancers stop sending before it closes connections.
         */
        public Builder readinessOf(Server server) {
            requireNonNull(server, "server");
            return readiness(
                    "server",
                    () -> CompletableFuture.completedFuture(
                            server.isDraining() ? HealthStatus.down("draining") : HealthStatus.up()),
                    Duration.ofSeconds(1));
        }

        /** The checks. */
        public Health build() {
            return new Health(this);
        }

        private static NamedCheck checked(List<NamedCheck> existing, String name, HealthCheck check, Duration timeout) {
            requireNonNull(name, "name");
            requireNonNull(check, "check");
            requireNonNull(timeout, "timeout");
            if (name.isEmpty()) {
                throw new IllegalArgumentException("name: \"\" (expected: a non-empty name)");
            }
            for (NamedCheck named : existing) {
                if (named.name().equals(name)) {
                    throw new IllegalArgumentException("name: " + name + " (expected: a name not used yet)");
                }
            }
            if (timeout.isNegative() || timeout.isZero()) {
                throw new IllegalArgumentException("timeout: " + timeout + " (expected: > 0)");
            }
            return new NamedCheck(name, check, timeout);
        }
    }
}
