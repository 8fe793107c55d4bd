package io.parry.client.upstream;

import static java.util.Objects.requireNonNull;

import io.parry.client.ClientSender;
import io.parry.client.Endpoint;
import io.parry.client.upstream.internal.EndpointSelector;
import io.parry.client.upstream.internal.EndpointState;
import io.parry.client.upstream.internal.HealthChecker;
import io.parry.client.upstream.internal.OutlierEjector;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Predicate;

/**
 * A named group of endpoints with a balancing strategy, passive outlier ejection and optional
 * active health checks.
 *
 * <p>Thread-safe and lock-free on the call path: {@link #select}, {@link #callStarted} and {@link
 * #callFinished} may be called from any thread, event loops included, and allocate nothing (an
 * ejection aside, which logs). An endpoint is <em>healthy</em> when it is not ejected and its health
 * check, if any, passes; an ejection ends lazily, at the first look after its time is up, with no
 * timer.
 *
 * <pre>{@code
 * Upstream users = Upstream.builder("users")
 *         .endpoint(Endpoint.of("10.0.0.7", 8080))
 *         .endpoint(Endpoint.of("10.0.0.8", 8080))
 *         .balancing(Balancing.LEAST_OUTSTANDING)
 *         .healthCheck(HealthCheck.builder("/health").build())
 *         .build();
 * users.startHealthChecks(client, scheduler);
 * Endpoint endpoint = users.select(e -> true).orElseThrow();
 * users.callStarted(endpoint);
 * // ... call it, then:
 * users.callFinished(endpoint, succeeded);
 * }</pre>
 */
public final class Upstream implements AutoCloseable {
    private final String name;
    private final List<Endpoint> endpoints;
    private final Balancing balancing;
    private final OutlierDetection outlierDetection;
    private final HealthCheck healthCheck;
    private final EndpointState[] states;
    private final EndpointSelector selector;
    private final OutlierEjector ejector;
    // Guarded by this; only starting and closing health checks lock.
    private HealthChecker healthChecker;
    private boolean closed;

    private Upstream(Builder builder) {
        this.name = builder.name;
        this.endpoints = List.copyOf(builder.endpoints);
        this.balancing = builder.balancing;
        this.outlierDetection = builder.outlierDetection;
        this.healthCheck = builder.healthCheck;
        AtomicInteger ejected = new AtomicInteger();
        this.states = new EndpointState[endpoints.size()];
        for (int i = 0; i < states.length; i++) {
            states[i] = new EndpointState(endpoints.get(i), ejected);
        }
        this.selector = EndpointSelector.of(balancing, states);
        this.ejector = new OutlierEjector(name, outlierDetection, states, ejected);
    }

    /**
     * A group of these endpoints with round robin, the default outlier detection and no health check.
     *
     * @throws IllegalArgumentException if the name is blank, there is no endpoint, or two share a
     *     host and port
     */
    public static Upstream of(String name, Endpoint... endpoints) {
        return builder(name).endpoints(List.of(endpoints)).build();
    }

    /** A builder for a group of this name, for logs and the admin API. */
    public static Builder builder(String name) {
        return new Builder(requireNonNull(name, "name"));
    }

    /** The group's name. */
    public String name() {
        return name;
    }

    /** The endpoints, in the order they were added. */
    public List<Endpoint> endpoints() {
        return endpoints;
    }

    /** The balancing strategy. */
    public Balancing balancing() {
        return balancing;
    }

    /** The passive outlier detection settings. */
    public OutlierDetection outlierDetection() {
        return outlierDetection;
    }

    /** The active health check settings, if the group has health checks. */
    public Optional<HealthCheck> healthCheck() {
        return Optional.ofNullable(healthCheck);
    }

    /**
     * An endpoint for the next call among those that are healthy (not ejected, health check passing)
     * and accepted by {@code eligible} (the proxy uses it to skip endpoints already tried and
     * endpoints whose breaker is open); empty if none. The predicate must be cheap and must not
     * block: it runs for each healthy endpoint, possibly more than once.
     */
    public Optional<Endpoint> select(Predicate<Endpoint> eligible) {
        requireNonNull(eligible, "eligible");
        int index = selector.select(eligible);
        return index < 0 ? Optional.empty() : states[index].selection();
    }

    /** Whether any endpoint is healthy now. */
    public boolean hasHealthyEndpoint() {
        for (EndpointState state : states) {
            if (state.isHealthy()) {
                return true;
            }
        }
        return false;
    }

    /**
     * A call to the endpoint started (for least-outstanding counts); each must be followed by exactly
     * one {@link #callFinished}.
     *
     * @throws IllegalArgumentException if the endpoint is not in this group
     */
    public void callStarted(Endpoint endpoint) {
        stateOf(endpoint).callStarted();
    }

    /**
     * A call to the endpoint ended; failures count toward passive ejection, a success resets the
     * count. The caller decides what a failure is: typically no connection, no response in time, or a
     * 5xx status.
     *
     * @throws IllegalArgumentException if the endpoint is not in this group
     */
    public void callFinished(Endpoint endpoint, boolean success) {
        EndpointState state = stateOf(endpoint);
        state.callEnded();
        if (success) {
            ejector.onSuccess(state);
        } else {
            ejector.onFailure(state);
        }
    }

    /**
     * A call to the endpoint ended without an outcome, because the caller gave up on it (the client went
     * away, or the call was cancelled): it no longer counts as in flight, and neither resets nor adds
     * to the endpoint's failures, so callers that give up cannot hide a failing endpoint.
     *
     * @throws IllegalArgumentException if the endpoint is not in this group
     */
    public void callAbandoned(Endpoint endpoint) {
        stateOf(endpoint).callEnded();
    }

    /**
     * Starts active health checks, if configured: calls {@code sender} with {@code GET path} for each
     * endpoint every interval on {@code scheduler}, the first round at once. The sender should not
     * count the checks as calls of the group. Does nothing without a health check.
     *
     * @throws IllegalStateException if the checks were started already or the group is closed
     */
    public synchronized void startHealthChecks(ClientSender sender, ScheduledExecutorService scheduler) {
        requireNonNull(sender, "sender");
        requireNonNull(scheduler, "scheduler");
        if (closed) {
            throw new IllegalStateException("upstream " + name + " is closed");
        }
        if (healthChecker != null) {
            throw new IllegalStateException("upstream " + name + " health checks started already");
        }
        if (healthCheck != null) {
            healthChecker =
                    new HealthChecker(name, healthCheck, states, ejector::releaseIfNoneHealthy, sender, scheduler);
            healthChecker.start();
        }
    }

    /** A snapshot per endpoint, in the order of {@link #endpoints()}, for the admin API and metrics. */
    public List<EndpointStatus> status() {
        List<EndpointStatus> status = new ArrayList<>(states.length);
        for (EndpointState state : states) {
            status.add(state.status());
        }
        return List.copyOf(status);
    }

    /**
     * Stops health checks; a check in flight completes but is not logged. Selection keeps working
     * with the last health check results. Idempotent.
     */
    @Override
    public synchronized void close() {
        closed = true;
        if (healthChecker != null) {
            healthChecker.close();
        }
    }

    @Override
    public String toString() {
        return "Upstream{name=" + name + ", endpoints=" + endpoints + ", balancing=" + balancing + "}";
    }

    private EndpointState stateOf(Endpoint endpoint) {
        // Identity first: the caller almost always passes back what select() returned.
        for (EndpointState state : states) {
            if (state.endpoint() == endpoint) {
                return state;
            }
        }
        requireNonNull(endpoint, "endpoint");
        for (EndpointState state : states) {
            if (state.endpoint().equals(endpoint)) {
                return state;
            }
        }
        throw new IllegalArgumentException("endpoint: " + endpoint + " (expected: one of upstream " + name + ")");
    }

    /** Builds an {@link Upstream}; not thread-safe. */
    public static final class Builder {
        private final String name;
        private final List<Endpoint> endpoints = new ArrayList<>();
        private Balancing balancing = Balancing.ROUND_ROBIN;
        private OutlierDetection outlierDetection = OutlierDetection.ofDefault();
        private HealthCheck healthCheck;

        private Builder(String name) {
            this.name = name;
        }

        /** Adds these endpoints. */
        public Builder endpoints(List<Endpoint> endpoints) {
            requireNonNull(endpoints, "endpoints").forEach(this::endpoint);
            return this;
        }

        /** Adds an endpoint. */
        public Builder endpoint(Endpoint endpoint) {
            endpoints.add(requireNonNull(endpoint, "endpoint"));
            return this;
        }

        /** Sets the balancing strategy (default {@link Balancing#ROUND_ROBIN}). */
        public Builder balancing(Balancing balancing) {
            this.balancing = requireNonNull(balancing, "balancing");
            return this;
        }

        /** Sets passive outlier detection (default {@link OutlierDetection#ofDefault()}). */
        public Builder outlierDetection(OutlierDetection outlierDetection) {
            this.outlierDetection = requireNonNull(outlierDetection, "outlierDetection");
            return this;
        }

        /** Sets active health checks (default none). */
        public Builder healthCheck(HealthCheck healthCheck) {
            this.healthCheck = requireNonNull(healthCheck, "healthCheck");
            return this;
        }

        /**
         * The group.
         *
         * @throws IllegalArgumentException if the name is blank, there is no endpoint, or two share a
         *     host and port
         */
        public Upstream build() {
            if (name.isBlank()) {
                throw new IllegalArgumentException("name: blank (expected: a name)");
            }
            if (endpoints.isEmpty()) {
                throw new IllegalArgumentException("endpoints: empty (expected: at least one endpoint)");
            }
            Set<String> addresses = new HashSet<>();
            for (Endpoint endpoint : endpoints) {
                if (!addresses.add(endpoint.authority())) {
                    throw new IllegalArgumentException(
                            "endpoints: " + endpoint.authority() + " twice (expected: each host and port once)");
                }
            }
            return new Upstream(this);
        }
    }
}
