package io.parry.micrometer;

import static java.util.Objects.requireNonNull;

import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.MeterRegistry;
import io.parry.ratelimit.RateLimitObserver;
import java.util.concurrent.ConcurrentHashMap;

/**
 * Micrometer counts of rate limit decisions: the {@link RateLimitObserver} of {@code RateLimitFilter}s.
 *
 * <pre>{@code
 * RateLimitMetrics metrics = RateLimitMetrics.of(registry);
 * RateLimitFilter filter = RateLimitFilter.builder(limiter).name("hello").observer(metrics).build();
 * }</pre>
 *
 * <p>One counter, {@code parry.ratelimit.requests}, tagged {@code route} (the filter's name) and {@code
 * outcome}: {@code allowed}, {@code limited} (answered 429) or {@code failed} (the limiter could not decide
 * and refused). Never tagged by key: keys are clients, unbounded. Counters are registered on first use
 * and cached; thread-safe.
 */
public final class RateLimitMetrics implements RateLimitObserver {
    private final MeterRegistry registry;
    private final ConcurrentHashMap<String, Counter[]> byRoute = new ConcurrentHashMap<>();

    private RateLimitMetrics(MeterRegistry registry) {
        this.registry = registry;
    }

    /** Metrics recorded to the registry. */
    public static RateLimitMetrics of(MeterRegistry registry) {
        return new RateLimitMetrics(requireNonNull(registry, "registry"));
    }

    @Override
    public void allowed(String name) {
        counters(name)[0].increment();
    }

    @Override
    public void limited(String name) {
        counters(name)[1].increment();
    }

    @Override
    public void failed(String name) {
        counters(name)[2].increment();
    }

    private Counter[] counters(String route) {
        Counter[] counters = byRoute.get(route);
        return counters != null ? counters : byRoute.computeIfAbsent(route, this::register);
    }

    private Counter[] register(String route) {
        return new Counter[] {counter(route, "allowed"), counter(route, "limited"), counter(route, "failed")};
    }

    private Counter counter(String route, String outcome) {
        return Counter.builder("parry.ratelimit.requests")
                .description("Requests a rate limit let pass or refused")
                .tags("route", route, "outcome", outcome)
                .register(registry);
    }
}
