package io.parry.micrometer.internal;

import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.Tags;
import io.parry.client.Endpoint;
import io.parry.proxy.ProxyObserver;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicReferenceArray;

/**
 * The event meters of one upstream of a proxy: attempts per endpoint ({@code parry.proxy.requests},
 * {@code parry.proxy.connect.failures}), refusals by reason ({@code parry.proxy.rejections}) and
 * exchanges the client ended by cause ({@code parry.proxy.client.endings}), each registered on first
 * use and then found without a registry look-up.
 */
public final class UpstreamMeters {
    private static final ProxyObserver.Refusal[] REFUSALS = ProxyObserver.Refusal.values();
    private static final ProxyObserver.ClientEnding[] CLIENT_ENDINGS = ProxyObserver.ClientEnding.values();

    private final MeterRegistry registry;
    private final Tags tags;
    private final ConcurrentHashMap<Endpoint, EndpointMeters> endpoints = new ConcurrentHashMap<>();
    private final AtomicReferenceArray<Counter> rejections = new AtomicReferenceArray<>(REFUSALS.length);
    private final AtomicReferenceArray<Counter> clientEndings = new AtomicReferenceArray<>(CLIENT_ENDINGS.length);

    /** The meters of the upstream of this name. */
    public UpstreamMeters(MeterRegistry registry, String upstream) {
        this.registry = registry;
        this.tags = Tags.of("upstream", upstream);
    }

    /** The meters of the attempts to this endpoint. */
    public EndpointMeters endpoint(Endpoint endpoint) {
        EndpointMeters meters = endpoints.get(endpoint);
        return meters != null
                ? meters
                : endpoints.computeIfAbsent(
                        endpoint,
                        e -> new EndpointMeters(registry, "parry.proxy", tags.and("endpoint", e.authority())));
    }

    /** Counts a request refused before any attempt. */
    public void rejected(ProxyObserver.Refusal reason) {
        Counter counter = rejections.get(reason.ordinal());
        if (counter == null) {
            // A race registers twice; the registry hands both callers the same counter.
            counter = Counter.builder("parry.proxy.rejections")
                    .description("Requests refused before any attempt")
                    .tags(tags)
                    .tag("reason", reason.name())
                    .register(registry);
            rejections.set(reason.ordinal(), counter);
        }
        counter.increment();
    }

    /** Counts an exchange the downstream client ended, apart from the upstream's own failures. */
    public void clientEnded(ProxyObserver.ClientEnding ending) {
        Counter counter = clientEndings.get(ending.ordinal());
        if (counter == null) {
            counter = Counter.builder("parry.proxy.client.endings")
                    .description("Proxied exchanges the client ended (not counted against the upstream)")
                    .tags(tags)
                    .tag("cause", ending.name())
                    .register(registry);
            clientEndings.set(ending.ordinal(), counter);
        }
        counter.increment();
    }
}
