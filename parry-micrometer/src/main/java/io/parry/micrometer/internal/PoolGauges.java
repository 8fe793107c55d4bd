package io.parry.micrometer.internal;

import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.Meter;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.Tags;
import io.parry.client.Endpoint;
import io.parry.client.HttpClient;
import io.parry.client.upstream.Upstream;
import java.util.ArrayList;
import java.util.List;
import java.util.function.ToIntFunction;

/** Gauges of a client's connection pools to the endpoints of an upstream: active, idle, pending. */
public final class PoolGauges {
    private PoolGauges() {}

    /**
     * Registers {@code <prefix>.active}, {@code .idle} and {@code .pending} per endpoint, tagged with
     * these tags and {@code endpoint}; returns the gauges, for removal. They hold the client weakly.
     */
    public static List<Meter> register(
            MeterRegistry registry, String prefix, HttpClient client, Upstream upstream, Tags tags) {
        List<Meter> gauges = new ArrayList<>();
        for (Endpoint endpoint : upstream.endpoints()) {
            Tags endpointTags = tags.and("endpoint", endpoint.authority());
            gauges.add(gauge(
                    registry,
                    prefix + ".active",
                    "Pooled connections carrying a call",
                    client,
                    endpointTags,
                    c -> c.poolStats(endpoint).active()));
            gauges.add(gauge(
                    registry,
                    prefix + ".idle",
                    "Pooled connections waiting for a call",
                    client,
                    endpointTags,
                    c -> c.poolStats(endpoint).idle()));
            gauges.add(gauge(
                    registry,
                    prefix + ".pending",
                    "Calls waiting for a pooled connection",
                    client,
                    endpointTags,
                    c -> c.poolStats(endpoint).pending()));
        }
        return gauges;
    }

    private static Gauge gauge(
            MeterRegistry registry,
            String name,
            String description,
            HttpClient client,
            Tags tags,
            ToIntFunction<HttpClient> value) {
        return Gauge.builder(name, client, value::applyAsInt)
                .description(description)
                .tags(tags)
                .register(registry);
    }
}
