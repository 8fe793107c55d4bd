package io.parry.micrometer.internal;

import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.Timer;
import io.parry.server.RequestLog;
import java.time.Duration;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;

/**
 * Timers of the latency the gateway adds per route ({@code parry.proxy.added.latency}): a request's
 * duration less the time spent waiting on upstreams. They publish a percentile histogram, with a
 * bucket boundary at 50 ms, so that a p99 or the share of requests over budget is a query.
 */
public final class AddedLatencyTimers {
    private static final Duration BUDGET = Duration.ofMillis(50);

    private final MeterRegistry registry;
    private final ConcurrentHashMap<String, Timer> routes = new ConcurrentHashMap<>();
    private volatile Timer unmatched;

    /** Timers registered to the registry on first use. */
    public AddedLatencyTimers(MeterRegistry registry) {
        this.registry = registry;
    }

    /** Records the added latency of a request that waited on an upstream; ignores the others. */
    public void record(RequestLog log) {
        long upstreamNanos = log.upstreamNanos();
        if (upstreamNanos < 0) {
            return;
        }
        timer(log.route()).record(Math.max(0, log.durationNanos() - upstreamNanos), TimeUnit.NANOSECONDS);
    }

    private Timer timer(String route) {
        if (route == null) {
            Timer timer = unmatched;
            if (timer == null) {
                timer = register(RequestTimers.UNMATCHED);
                unmatched = timer;
            }
            return timer;
        }
        Timer timer = routes.get(route);
        return timer != null ? timer : routes.computeIfAbsent(route, this::register);
    }

    private Timer register(String route) {
        return Timer.builder("parry.proxy.added.latency")
                .description("Time spent in the gateway, excluding the wait for upstream response heads")
                .tag("route", route)
                .publishPercentileHistogram()
                .serviceLevelObjectives(BUDGET)
                .minimumExpectedValue(Duration.ofNanos(100_000))
                .maximumExpectedValue(Duration.ofSeconds(10))
                .register(registry);
    }
}
