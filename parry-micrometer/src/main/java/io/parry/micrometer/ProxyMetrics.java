package io.parry.micrometer;

import static java.util.Objects.requireNonNull;

import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.FunctionCounter;
import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.Meter;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.Tags;
import io.parry.client.Endpoint;
import io.parry.micrometer.internal.AddedLatencyTimers;
import io.parry.micrometer.internal.PoolGauges;
import io.parry.micrometer.internal.UpstreamMeters;
import io.parry.proxy.BreakerState;
import io.parry.proxy.GuardedUpstream;
import io.parry.proxy.ProxyObserver;
import io.parry.server.RequestListener;
import io.parry.server.RequestLog;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

/**
 * Micrometer metrics of a proxy: the {@link ProxyObserver} of its upstreams, the {@link RequestListener}
 * of its server for the latency the gateway adds, and gauges of each {@link #bind bound} upstream.
 *
 * <pre>{@code
 * ProxyMetrics metrics = ProxyMetrics.of(registry);
 * GuardedUpstream users = GuardedUpstream.builder(upstream).observer(metrics).build();
 * metrics.bind(users);
 * Server server = Server.builder().handler(ProxyHandler.to(users)).listener(metrics).build();
 * }</pre>
 *
 * <table>
 *   <caption>Meters, tagged {@code upstream} (its name) and, where per endpoint, {@code endpoint}</caption>
 *   <tr><td>{@code parry.proxy.requests}</td><td>timer: each attempt until its response head; tag {@code
 *       status}: the status class or the failure's simple class name</td></tr>
 *   <tr><td>{@code parry.proxy.connect.failures}</td><td>counter: connections that could not be
 *       opened</td></tr>
 *   <tr><td>{@code parry.proxy.retries}</td><td>counter; tag {@code reason}: the status code or the
 *       failure's simple class name</td></tr>
 *   <tr><td>{@code parry.proxy.breaker.transitions}</td><td>counter; tags {@code from}, {@code
 *       to}</td></tr>
 *   <tr><td>{@code parry.proxy.rejections}</td><td>counter per {@link ProxyObserver.Refusal} ({@code
 *       reason})</td></tr>
 *   <tr><td>{@code parry.proxy.client.endings}</td><td>counter per {@link ProxyObserver.ClientEnding}
 *       ({@code cause}): exchanges the downstream client ended, which count nowhere against the
 *       upstream</td></tr>
 *   <tr><td>{@code parry.proxy.added.latency}</td><td>timer per {@code route} with a percentile histogram
 *       and a 50 ms bucket: the request's duration less its wait for upstream response heads (a response
 *       body's streaming counts as added)</td></tr>
 *   <tr><td>{@code parry.proxy.websocket.opened}, {@code .closed}</td><td>counters per {@code route}
 *       (the proxy's name): WebSocket sessions the upstream accepted, and those that ended since</td></tr>
 *   <tr><td colspan="2">Bound upstreams only:</td></tr>
 *   <tr><td>{@code parry.proxy.breaker.state}</td><td>gauge, 1 for the endpoint's current {@code state}
 *       ({@code closed}, {@code open}, {@code half_open}), else 0; absent with breakers off</td></tr>
 *   <tr><td>{@code parry.proxy.endpoint.healthy}</td><td>gauge: 1 when not ejected and its health check
 *       passes, else 0</td></tr>
 *   <tr><td>{@code parry.proxy.endpoint.inflight}</td><td>gauge: calls started and not finished</td></tr>
 *   <tr><td>{@code parry.proxy.inflight}</td><td>gauge: requests holding a bulkhead place (0 without a
 *       bulkhead)</td></tr>
 *   <tr><td>{@code parry.proxy.bulkhead.rejections}</td><td>counter</td></tr>
 *   <tr><td>{@code parry.proxy.adaptive.limit}</td><td>gauge: the adaptive concurrency limit now; absent
 *       without one</td></tr>
 *   <tr><td>{@code parry.proxy.adaptive.sheds}</td><td>counter: requests the adaptive limit shed (503 at
 *       once); absent without one</td></tr>
 *   <tr><td>{@code parry.proxy.websocket.sessions}</td><td>gauge: proxied WebSocket sessions open</td></tr>
 *   <tr><td>{@code parry.proxy.pool.active}, {@code .idle}, {@code .pending}</td><td>gauges of the
 *       upstream's client pools</td></tr>
 * </table>
 *
 * <p>Events are recorded on the event loops; their meters are registered on first use and cached.
 * Thread-safe. When a configuration reload replaces an upstream, {@link #unbind} the old one before
 * binding its successor of the same name: a registry keeps the first gauge of a name and tags.
 */
public final class ProxyMetrics implements ProxyObserver, RequestListener {
    private static final BreakerState[] GAUGED_STATES = {BreakerState.CLOSED, BreakerState.OPEN, BreakerState.HALF_OPEN
    };

    private final MeterRegistry registry;
    private final ConcurrentHashMap<String, UpstreamMeters> upstreams = new ConcurrentHashMap<>();
    private final AddedLatencyTimers addedLatency;
    private final Map<GuardedUpstream, List<Meter>> bound = new ConcurrentHashMap<>();

    private ProxyMetrics(MeterRegistry registry) {
        this.registry = registry;
        this.addedLatency = new AddedLatencyTimers(registry);
    }

    /** Metrics recorded to the registry. */
    public static ProxyMetrics of(MeterRegistry registry) {
        return new ProxyMetrics(requireNonNull(registry, "registry"));
    }

    /**
     * Registers the gauges of the upstream: breaker states, health and calls in flight per endpoint,
     * the bulkhead, and the client's pools. They hold the upstream weakly. Binding twice does nothing.
     */
    public void bind(GuardedUpstream upstream) {
        requireNonNull(upstream, "upstream");
        bound.computeIfAbsent(upstream, this::register);
    }

    /** Removes the gauges {@link #bind} registered for the upstream; does nothing if it was not bound. */
    public void unbind(GuardedUpstream upstream) {
        List<Meter> meters = bound.remove(requireNonNull(upstream, "upstream"));
        if (meters != null) {
            meters.forEach(registry::remove);
        }
    }

    /** Records the attempt's time under its outcome, and a connect failure. */
    @Override
    public void attemptEnded(String upstream, Endpoint endpoint, int status, Throwable failure, long nanos) {
        upstream(upstream).endpoint(endpoint).record(status, failure, nanos);
    }

    /** Counts a retry. */
    @Override
    public void retried(String upstream, Endpoint endpoint, String reason) {
        Counter.builder("parry.proxy.retries")
                .description("Requests tried again after a failed attempt")
                .tags("upstream", upstream, "endpoint", endpoint.authority(), "reason", reason)
                .register(registry)
                .increment();
    }

    /** Counts a breaker transition. */
    @Override
    public void breakerTransition(String upstream, Endpoint endpoint, BreakerState from, BreakerState to) {
        Counter.builder("parry.proxy.breaker.transitions")
                .description("Circuit breaker state changes")
                .tags("upstream", upstream, "endpoint", endpoint.authority())
                .tags("from", tagValue(from), "to", tagValue(to))
                .register(registry)
                .increment();
    }

    /** Counts a refusal. */
    @Override
    public void rejected(String upstream, Refusal reason) {
        upstream(upstream).rejected(reason);
    }

    /** Counts an exchange the client ended, by cause; the upstream's own meters do not see it. */
    @Override
    public void clientEnded(String upstream, ProxyObserver.ClientEnding ending) {
        upstream(upstream).clientEnded(ending);
    }

    /** Counts a WebSocket session the upstream accepted. */
    @Override
    public void webSocketOpened(String upstream, Endpoint endpoint, String route) {
        webSocketCounter("parry.proxy.websocket.opened", "WebSocket sessions the upstream accepted", upstream, route)
                .increment();
    }

    /** Counts a WebSocket session that ended. */
    @Override
    public void webSocketClosed(String upstream, Endpoint endpoint, String route) {
        webSocketCounter("parry.proxy.websocket.closed", "Proxied WebSocket sessions that ended", upstream, route)
                .increment();
    }

    private Counter webSocketCounter(String name, String description, String upstream, String route) {
        return Counter.builder(name)
                .description(description)
                .tags("upstream", upstream, "route", route)
                .register(registry);
    }

    /** Records the latency the gateway added to a request that waited on an upstream. */
    @Override
    public void requestEnded(RequestLog log) {
        addedLatency.record(log);
    }

    @Override
    public String toString() {
        return "ProxyMetrics" + bound.keySet();
    }

    private UpstreamMeters upstream(String name) {
        UpstreamMeters meters = upstreams.get(name);
        return meters != null ? meters : upstreams.computeIfAbsent(name, n -> new UpstreamMeters(registry, n));
    }

    private List<Meter> register(GuardedUpstream guarded) {
        Tags tags = Tags.of("upstream", guarded.upstream().name());
        List<Meter> meters = new ArrayList<>();
        meters.add(Gauge.builder("parry.proxy.inflight", guarded, GuardedUpstream::inFlight)
                .description("Requests holding a place in the upstream's bulkhead")
                .tags(tags)
                .register(registry));
        meters.add(
                FunctionCounter.builder("parry.proxy.bulkhead.rejections", guarded, GuardedUpstream::bulkheadRejections)
                        .description("Requests the upstream's bulkhead refused")
                        .tags(tags)
                        .register(registry));
        if (guarded.adaptiveConcurrency() != null) {
            meters.add(Gauge.builder("parry.proxy.adaptive.limit", guarded, GuardedUpstream::concurrencyLimit)
                    .description("The upstream's adaptive concurrency limit now")
                    .tags(tags)
                    .register(registry));
            meters.add(FunctionCounter.builder("parry.proxy.adaptive.sheds", guarded, GuardedUpstream::adaptiveSheds)
                    .description("Requests the upstream's adaptive concurrency limit shed")
                    .tags(tags)
                    .register(registry));
        }
        meters.add(Gauge.builder("parry.proxy.websocket.sessions", guarded, GuardedUpstream::webSocketSessions)
                .description("Proxied WebSocket sessions open")
                .tags(tags)
                .register(registry));
        List<Endpoint> endpoints = guarded.upstream().endpoints();
        for (int i = 0; i < endpoints.size(); i++) {
            registerEndpoint(guarded, endpoints.get(i), i, tags, meters);
        }
        meters.addAll(PoolGauges.register(registry, "parry.proxy.pool", guarded.client(), guarded.upstream(), tags));
        return List.copyOf(meters);
    }

    private void registerEndpoint(
            GuardedUpstream guarded, Endpoint endpoint, int index, Tags upstreamTags, List<Meter> meters) {
        Tags tags = upstreamTags.and("endpoint", endpoint.authority());
        meters.add(Gauge.builder(
                        "parry.proxy.endpoint.healthy",
                        guarded,
                        g -> g.upstream().status().get(index).healthy() ? 1 : 0)
                .description("1 when the endpoint takes calls: not ejected, health check passing")
                .tags(tags)
                .register(registry));
        meters.add(Gauge.builder(
                        "parry.proxy.endpoint.inflight",
                        guarded,
                        g -> g.upstream().status().get(index).inFlight())
                .description("Calls to the endpoint started and not finished")
                .tags(tags)
                .register(registry));
        if (!guarded.breakerOptions().enabled()) {
            return;
        }
        for (BreakerState state : GAUGED_STATES) {
            meters.add(
                    Gauge.builder("parry.proxy.breaker.state", guarded, g -> g.breakerState(endpoint) == state ? 1 : 0)
                            .description("1 for the state the endpoint's circuit breaker is in")
                            .tags(tags)
                            .tag("state", tagValue(state))
                            .register(registry));
        }
    }

    private static String tagValue(BreakerState state) {
        return state.name().toLowerCase(Locale.ROOT);
    }
}
