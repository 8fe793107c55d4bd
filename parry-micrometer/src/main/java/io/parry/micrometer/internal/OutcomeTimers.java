package io.parry.micrometer.internal;

import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.Tags;
import io.micrometer.core.instrument.Timer;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicReferenceArray;

/**
 * The timers of one endpoint's calls, one per outcome: the response's status class, or the simple
 * class name of the failure. Each timer is registered on first use and then found without a lookup
 * in the registry.
 */
final class OutcomeTimers {
    private final MeterRegistry registry;
    private final String name;
    private final Tags tags;
    private final AtomicReferenceArray<Timer> byStatus = new AtomicReferenceArray<>(StatusClasses.COUNT);
    private final ConcurrentHashMap<Class<?>, Timer> byFailure = new ConcurrentHashMap<>();

    OutcomeTimers(MeterRegistry registry, String name, Tags tags) {
        this.registry = registry;
        this.name = name;
        this.tags = tags;
    }

    void record(int status, Throwable failure, long nanos) {
        timer(status, failure).record(nanos, TimeUnit.NANOSECONDS);
    }

    private Timer timer(int status, Throwable failure) {
        if (failure != null) {
            Timer timer = byFailure.get(failure.getClass());
            return timer != null
                    ? timer
                    : byFailure.computeIfAbsent(failure.getClass(), type -> register(Failures.name(type)));
        }
        int index = StatusClasses.index(status);
        Timer timer = byStatus.get(index);
        if (timer == null) {
            // A race registers twice; the registry hands both callers the same timer.
            timer = register(StatusClasses.label(index));
            byStatus.set(index, timer);
        }
        return timer;
    }

    private Timer register(String outcome) {
        return Timer.builder(name)
                .description("Calls to the endpoint until the response head, by status class or failure")
                .tags(tags)
                .tag("status", outcome)
                .register(registry);
    }
}
