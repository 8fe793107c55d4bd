package io.parry.proxy;

import static java.util.Objects.requireNonNull;

import io.github.resilience4j.bulkhead.Bulkhead;
import io.github.resilience4j.bulkhead.BulkheadConfig;
import io.github.resilience4j.circuitbreaker.CircuitBreaker;
import io.github.resilience4j.circuitbreaker.CircuitBreakerConfig;
import io.parry.client.Endpoint;
import io.parry.client.HttpClient;
import io.parry.client.upstream.Upstream;
import io.parry.http.HttpResponse;
import io.parry.proxy.internal.GradientLimit;
import java.time.Duration;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.LongAdder;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * An {@link Upstream} with what protects the gateway from it: a circuit breaker per endpoint and a
 * bulkhead for the group (Resilience4j), and the client whose pools reach it. A dead or slow upstream
 * then costs no more than its bulkhead: beyond {@code maxConcurrent} requests in flight, the proxy
 * answers 503 at once. A request holds its place until its response body ends, but not while its
 * client is still sending the body: a body read whole before sending must find a place again after
 * (503 if the bulkhead filled meanwhile), and a streamed one takes its place back when it ended,
 * whatever the bulkhead, the upstream having the request by then. So clients sending slowly cannot
 * fill it. A client reading the response slowly keeps its place: the upstream connection is in use
 * all that time (Envoy's {@code max_requests} counts such a request too).
 *
 * <p>An adaptive concurrency limit ({@link AdaptiveConcurrencyOptions}, off unless set) finds how many
 * requests the group serves without slowing down, and answers the excess 503 at once too. A request
 * holds its place in it until the response head arrives, but not while its client is still sending
 * the body: bodies and responses are paced by clients, and only what the upstream does may move the
 * limit or fill it.
 *
 * <pre>{@code
 * GuardedUpstream users = GuardedUpstream.builder(Upstream.of("users", Endpoint.parse("10.0.0.7:8080")))
 *         .maxConcurrent(200)
 *         .build();
 * }</pre>
 *
 * Closing it stops the upstream's health checks and closes the client if the group created it.
 */
public final class GuardedUpstream implements AutoCloseable {
    private static final Logger log = LoggerFactory.getLogger(GuardedUpstream.class);
    private static final long LOCAL_RESOURCES_WARNING_INTERVAL_NANOS = TimeUnit.SECONDS.toNanos(10);

    private final Upstream upstream;
    private final HttpClient client;
    private final boolean ownsClient;
    private final BreakerOptions breakerOptions;
    private final CircuitBreakerConfig breakerConfig;
    private final ConcurrentHashMap<String, EndpointBreaker> breakers = new ConcurrentHashMap<>();
    private final ConcurrentHashMap<Endpoint, String> labels = new ConcurrentHashMap<>();
    private final Bulkhead bulkhead;
    private final LongAdder bulkheadRejections = new LongAdder();
    /** Places taken by {@link #reenter()} beyond the bulkhead's; the next exits keep their permits for them. */
    private final AtomicInteger overdrawn = new AtomicInteger();

    private final AdaptiveConcurrencyOptions adaptiveOptions;
    private final GradientLimit adaptiveLimit;
    private final CompletableFuture<HttpResponse> shedAnswer;
    private final CompletableFuture<HttpResponse> grpcShedAnswer;
    private final AtomicInteger webSocketSessions = new AtomicInteger();
    private final ScheduledExecutorService healthScheduler;
    private final ProxyObserver observer;
    private final AtomicLong nextLocalResourcesWarning = new AtomicLong(System.nanoTime());

    private GuardedUpstream(Builder builder) {
        this.upstream = builder.upstream;
        this.observer = builder.observer;
        this.ownsClient = builder.client == null;
        this.client = ownsClient ? HttpClient.ofDefault() : builder.client;
        this.breakerOptions = builder.breaker;
        this.breakerConfig = breakerOptions.enabled() ? breakerConfig(breakerOptions) : null;
        this.bulkhead = builder.maxConcurrent == 0
                ? null
                : Bulkhead.of(
                        upstream.name(),
                        BulkheadConfig.custom()
                                .maxConcurrentCalls(builder.maxConcurrent)
                                .maxWaitDuration(Duration.ZERO)
                                .build());
        this.adaptiveOptions = builder.adaptive;
        this.adaptiveLimit = adaptiveOptions == null ? null : new GradientLimit(adaptiveOptions, System.nanoTime());
        this.shedAnswer = adaptiveOptions == null ? null : ProxyFailures.shedAnswer(upstream.name(), false);
        this.grpcShedAnswer = adaptiveOptions == null ? null : ProxyFailures.shedAnswer(upstream.name(), true);
        this.healthScheduler = builder.healthChecked && upstream.healthCheck().isPresent() ? startHealthChecks() : null;
    }

    /** The upstream guarded with default breakers, no bulkhead, and a client of its own. */
    public static GuardedUpstream of(Upstream upstream) {
        return builder(upstream).build();
    }

    /** A builder for this upstream. */
    public static Builder builder(Upstream upstream) {
        return new Builder(requireNonNull(upstream, "upstream"));
    }

    /** The upstream: endpoints, balancing and health. */
    public Upstream upstream() {
        return upstream;
    }

    /** The client whose pools reach the endpoints. */
    public HttpClient client() {
        return client;
    }

    /** The breaker options. */
    public BreakerOptions breakerOptions() {
        return breakerOptions;
    }

    /** The state of the endpoint's breaker. */
    public BreakerState breakerState(Endpoint endpoint) {
        CircuitBreaker breaker = breaker(endpoint);
        return breaker == null ? BreakerState.DISABLED : state(breaker.getState());
    }

    static BreakerState state(CircuitBreaker.State state) {
        switch (state) {
            case OPEN:
            case FORCED_OPEN:
                return BreakerState.OPEN;
            case HALF_OPEN:
                return BreakerState.HALF_OPEN;
            default:
                return BreakerState.CLOSED;
        }
    }

    /** Requests in flight through the bulkhead; 0 when there is none. */
    public int inFlight() {
        return bulkhead == null
                ? 0
                : bulkhead.getBulkheadConfig().getMaxConcurrentCalls()
                        - bulkhead.getMetrics().getAvailableConcurrentCalls()
                        + overdrawn.get();
    }

    /** How many requests the bulkhead refused since the group was built. */
    public long bulkheadRejections() {
        return bulkheadRejections.sum();
    }

    /** The adaptive concurrency limit's options; {@code null} when the group has none (the default). */
    public AdaptiveConcurrencyOptions adaptiveConcurrency() {
        return adaptiveOptions;
    }

    /** The adaptive concurrency limit now; 0 when the group has none. */
    public int concurrencyLimit() {
        return adaptiveLimit == null ? 0 : adaptiveLimit.limit();
    }

    /** How many requests the adaptive concurrency limit shed since the group was built. */
    public long adaptiveSheds() {
        return adaptiveLimit == null ? 0 : adaptiveLimit.sheds();
    }

    /**
     * How many WebSocket sessions proxied to the group are open. They hold no place in the bulkhead and
     * outlive a reload that replaces the group: each stays on the endpoint that accepted it.
     */
    public int webSocketSessions() {
        return webSocketSessions.get();
    }

    void webSocketOpened(Endpoint endpoint, String route) {
        webSocketSessions.incrementAndGet();
        observer.webSocketOpened(upstream.name(), endpoint, route);
    }

    void webSocketClosed(Endpoint endpoint, String route) {
        webSocketSessions.decrementAndGet();
        observer.webSocketClosed(upstream.name(), endpoint, route);
    }

    /**
     * A connection to the endpoint could not be opened for want of a socket in this process: counted as
     * a refusal, and logged at most once per {@link #LOCAL_RESOURCES_WARNING_INTERVAL_NANOS} so that an
     * exhausted process does not also flood its log.
     */
    void outOfLocalResources(Endpoint endpoint, Throwable cause) {
        observer.rejected(upstream.name(), ProxyObserver.Refusal.LOCAL_RESOURCES);
        long now = System.nanoTime();
        long next = nextLocalResourcesWarning.get();
        if (now - next >= 0
                && nextLocalResourcesWarning.compareAndSet(next, now + LOCAL_RESOURCES_WARNING_INTERVAL_NANOS)) {
            log.warn(
                    "Cannot open a connection to {} of upstream {}: this process is out of file descriptors or local"
                            + " ports ({}). Requests are answered 503 and the endpoint's breaker is not told; raise the"
                            + " open files limit (ulimit -n) or hold fewer connections",
                    endpoint.authority(),
                    upstream.name(),
                    cause.getMessage());
        }
    }

    /** Stops health checks and closes the client if the group created it. */
    @Override
    public void close() {
        upstream.close();
        if (healthScheduler != null) {
            healthScheduler.shutdownNow();
        }
        if (ownsClient) {
            client.close();
        }
    }

    @Override
    public String toString() {
        return "GuardedUpstream(" + upstream.name() + ")";
    }

    /** The endpoint's breaker, created on first use; {@code null} when breakers are disabled. */
    CircuitBreaker breaker(Endpoint endpoint) {
        EndpointBreaker breaker = endpointBreaker(endpoint);
        return breaker == null ? null : breaker.breaker();
    }

    /** The endpoint's breaker with its transitions told to the observer; {@code null} when disabled. */
    EndpointBreaker endpointBreaker(Endpoint endpoint) {
        if (breakerConfig == null) {
            return null;
        }
        String key = endpoint.authority();
        EndpointBreaker breaker = breakers.get(key);
        return breaker != null ? breaker : breakers.computeIfAbsent(key, k -> newBreaker(k, endpoint));
    }

    private EndpointBreaker newBreaker(String key, Endpoint endpoint) {
        CircuitBreaker breaker = CircuitBreaker.of(upstream.name() + "/" + key, breakerConfig);
        return new EndpointBreaker(breaker, endpoint, upstream.name(), observer);
    }

    /** The observer told about attempts, retries, transitions and refusals. */
    ProxyObserver observer() {
        return observer;
    }

    /** {@code name/host:port}, the endpoint's name in request logs; made once per endpoint. */
    String label(Endpoint endpoint) {
        String label = labels.get(endpoint);
        return label != null ? label : labels.computeIfAbsent(endpoint, e -> upstream.name() + "/" + e.authority());
    }

    /** Takes a place in the bulkhead; false (and counted) when it is full. */
    boolean tryEnter() {
        if (bulkhead == null || bulkhead.tryAcquirePermission()) {
            return true;
        }
        bulkheadRejections.increment();
        observer.rejected(upstream.name(), ProxyObserver.Refusal.BULKHEAD_FULL);
        return false;
    }

    /** Takes a place under the adaptive limit; false (and counted) when it is reached. */
    boolean tryAdmit() {
        if (adaptiveLimit == null || adaptiveLimit.tryAcquire()) {
            return true;
        }
        observer.rejected(upstream.name(), ProxyObserver.Refusal.ADAPTIVE_LIMIT);
        return false;
    }

    /**
     * Takes a place under the adaptive limit whatever it is now: for a request the upstream has, whose
     * place was given back while its client was still sending the body.
     */
    void reenterLimit() {
        if (adaptiveLimit != null) {
            adaptiveLimit.enter();
        }
    }

    /** The adaptive limit's 503 with {@code Retry-After} (or a gRPC status), the same for every shed. */
    CompletableFuture<HttpResponse> shedAnswer(boolean grpc) {
        return grpc ? grpcShedAnswer : shedAnswer;
    }

    /** Gives back a place taken by {@link #tryAdmit()} or {@link #reenterLimit()}. */
    void leaveLimit() {
        if (adaptiveLimit != null) {
            adaptiveLimit.release();
        }
    }

    /** Tells the adaptive limit how long the upstream took from the request sent to the response head. */
    void limitSample(long rttNanos, long nowNanos) {
        if (adaptiveLimit != null) {
            adaptiveLimit.sample(rttNanos, nowNanos);
        }
    }

    /** Tells the adaptive limit that the upstream failed a request as an overloaded one does. */
    void limitDrop(long nowNanos) {
        if (adaptiveLimit != null) {
            adaptiveLimit.drop(nowNanos);
        }
    }

    /** Whether the group has an adaptive limit. */
    boolean isAdaptive() {
        return adaptiveLimit != null;
    }

    /**
     * Takes a place in the bulkhead whatever it holds now: for a request the upstream has, whose place
     * was given back while its client was still sending the body. Beyond the bulkhead's permits it is
     * owed, and the next place given back passes its permit on instead of releasing it.
     */
    void reenter() {
        if (bulkhead != null && !bulkhead.tryAcquirePermission()) {
            overdrawn.incrementAndGet();
        }
    }

    /** Whether the group has a bulkhead. */
    boolean hasBulkhead() {
        return bulkhead != null;
    }

    /** Gives back a place taken by {@link #tryEnter()} or {@link #reenter()}. */
    void exit() {
        if (bulkhead == null) {
            return;
        }
        for (int owed = overdrawn.get(); owed > 0; owed = overdrawn.get()) {
            if (overdrawn.compareAndSet(owed, owed - 1)) {
                return;
            }
        }
        bulkhead.onComplete();
    }

    private ScheduledExecutorService startHealthChecks() {
        ScheduledExecutorService scheduler = Executors.newSingleThreadScheduledExecutor(task -> {
            Thread thread = new Thread(task, "parry-health-" + upstream.name());
            thread.setDaemon(true);
            return thread;
        });
        upstream.startHealthChecks(client, scheduler);
        return scheduler;
    }

    /**
     * Resilience4j's count-based window takes a lock to record each outcome (a {@code ReentrantLock}
     * in {@code FixedSizeSlidingWindowMetrics.record}, 2.x): one short lock per proxied request, shared
     * by every event loop that calls the endpoint: the only lock the proxy itself takes per request. It
     * is held for a few array writes and contended only when many loops finish calls to one endpoint
     * at the same instant; Resilience4j is kept for its well-known semantics.
     */
    private static CircuitBreakerConfig breakerConfig(BreakerOptions options) {
        return CircuitBreakerConfig.custom()
                .slidingWindowType(CircuitBreakerConfig.SlidingWindowType.COUNT_BASED)
                .slidingWindowSize(options.slidingWindowSize())
                .minimumNumberOfCalls(options.minimumCalls())
                .failureRateThreshold(options.failureRateThreshold())
                .waitDurationInOpenState(options.openDuration())
                .permittedNumberOfCallsInHalfOpenState(options.halfOpenCalls())
                .automaticTransitionFromOpenToHalfOpenEnabled(false)
                .recordExceptions(Throwable.class)
                .build();
    }

    /** Builds a {@link GuardedUpstream}; not thread-safe. */
    public static final class Builder {
        private final Upstream upstream;
        private HttpClient client;
        private BreakerOptions breaker = BreakerOptions.ofDefault();
        private int maxConcurrent;
        private boolean healthChecked = true;
        private ProxyObserver observer = ProxyObserver.NONE;
        private AdaptiveConcurrencyOptions adaptive;

        private Builder(Upstream upstream) {
            this.upstream = upstream;
        }

        /** Uses a shared client (not closed with the group) instead of one of its own. */
        public Builder client(HttpClient client) {
            this.client = requireNonNull(client, "client");
            return this;
        }

        /** Sets the breaker options; {@link BreakerOptions#disabled()} turns breakers off. */
        public Builder breaker(BreakerOptions breaker) {
            this.breaker = requireNonNull(breaker, "breaker");
            return this;
        }

        /** Sets the most requests in flight to the group; 0 (the default) for no bulkhead. */
        public Builder maxConcurrent(int maxConcurrent) {
            this.maxConcurrent = maxConcurrent;
            return this;
        }

        /** Sets an adaptive concurrency limit for the group (default none). */
        public Builder adaptiveConcurrency(AdaptiveConcurrencyOptions options) {
            this.adaptive = requireNonNull(options, "adaptiveConcurrency");
            return this;
        }

        /**
         * Whether to run the upstream's active health checks, if it has any (default true); off for an
         * upstream whose checks someone else starts.
         */
        public Builder healthChecks(boolean enabled) {
            this.healthChecked = enabled;
            return this;
        }

        /** Sets the observer told about attempts, retries, breaker transitions and refusals (default none). */
        public Builder observer(ProxyObserver observer) {
            this.observer = requireNonNull(observer, "observer");
            return this;
        }

        /**
         * The guarded upstream; starts its health checks.
         *
         * @throws IllegalArgumentException if {@code maxConcurrent} is negative
         */
        public GuardedUpstream build() {
            if (maxConcurrent < 0) {
                throw new IllegalArgumentException("maxConcurrent: " + maxConcurrent + " (expected: >= 0)");
            }
            return new GuardedUpstream(this);
        }
    }
}
