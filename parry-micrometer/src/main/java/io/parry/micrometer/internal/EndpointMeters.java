package io.parry.micrometer.internal;

import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.Tags;

/**
 * The meters of the calls to one endpoint: a timer per outcome ({@code <prefix>.requests}, registered
 * on first use) and a counter of connections that could not be opened ({@code
 * <prefix>.connect.failures}, registered at once so that it reads 0 rather than nothing).
 */
public final class EndpointMeters {
    private final OutcomeTimers timers;
    private final Counter connectFailures;

    /** Meters named from {@code prefix}, for example {@code parry.client}, with these tags. */
    public EndpointMeters(MeterRegistry registry, String prefix, Tags tags) {
        this.timers = new OutcomeTimers(registry, prefix + ".requests", tags);
        this.connectFailures = Counter.builder(prefix + ".connect.failures")
                .description("Connections to the endpoint that could not be opened")
                .tags(tags)
                .register(registry);
    }

    /** Records a call that ended with a response head ({@code failure} null) or a failure. */
    public void record(int status, Throwable failure, long nanos) {
        Throwable cause = failure == null ? null : Failures.unwrap(failure);
        timers.record(status, cause, nanos);
        if (cause != null && Failures.isConnectFailure(cause)) {
            connectFailures.increment();
        }
    }
}
