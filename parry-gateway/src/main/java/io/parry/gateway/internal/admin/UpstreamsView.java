package io.parry.gateway.internal.admin;

import io.parry.client.PoolStats;
import io.parry.client.upstream.EndpointStatus;
import io.parry.gateway.internal.config.UpstreamConfig;
import io.parry.gateway.internal.reload.ActiveConfig;
import io.parry.gateway.internal.reload.ReloadFailure;
import io.parry.gateway.internal.upstream.UpstreamGroup;
import io.parry.proxy.AdaptiveConcurrencyOptions;
import io.parry.proxy.GuardedUpstream;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;

/**
 * The body of {@code GET /admin/upstreams}: each live upstream group with its endpoints' health,
 * ejection, breaker state, pool counts and calls in flight, its adaptive limit and sheds, its open WebSocket sessions, then the groups a reload retired that
 * still finish requests.
 */
final class UpstreamsView {
    private UpstreamsView() {}

    static Map<String, Object> of(ActiveConfig active, List<UpstreamGroup> retiring, Optional<ReloadFailure> failure) {
        Map<String, Object> view = VersionView.of(active);
        List<Object> groups = new ArrayList<>();
        active.upstreams().values().forEach(group -> groups.add(group(group)));
        view.put("upstreams", groups);
        List<Object> retired = new ArrayList<>();
        retiring.forEach(group -> retired.add(group(group)));
        view.put("retiring", retired);
        failure.ifPresent(f -> view.put("lastReloadError", VersionView.failure(f)));
        return view;
    }

    private static Map<String, Object> group(UpstreamGroup group) {
        UpstreamConfig config = group.config();
        GuardedUpstream guarded = group.guarded();
        Map<String, Object> view = new LinkedHashMap<>();
        view.put("name", group.name());
        view.put("balancing", config.balancing().name().toLowerCase(Locale.ROOT));
        view.put(
                "healthCheck",
                config.healthCheck() == null ? null : config.healthCheck().path());
        view.put("breaker", config.breaker().enabled() ? "on" : "off");
        view.put("maxConcurrent", config.maxConcurrent());
        view.put("inFlight", guarded.inFlight());
        view.put("bulkheadRejections", guarded.bulkheadRejections());
        view.put("adaptiveConcurrency", adaptive(guarded));
        view.put("webSocketSessions", guarded.webSocketSessions());
        List<Object> endpoints = new ArrayList<>();
        for (EndpointStatus status : guarded.upstream().status()) {
            endpoints.add(endpoint(group, status));
        }
        view.put("endpoints", endpoints);
        return view;
    }

    /** The adaptive limit now and its sheds, or {@code null} when the group has none. */
    private static Map<String, Object> adaptive(GuardedUpstream guarded) {
        AdaptiveConcurrencyOptions options = guarded.adaptiveConcurrency();
        if (options == null) {
            return null;
        }
        Map<String, Object> view = new LinkedHashMap<>();
        view.put("limit", guarded.concurrencyLimit());
        view.put("sheds", guarded.adaptiveSheds());
        view.put("minLimit", options.minLimit());
        view.put("maxLimit", options.maxLimit());
        return view;
    }

    private static Map<String, Object> endpoint(UpstreamGroup group, EndpointStatus status) {
        Map<String, Object> view = new LinkedHashMap<>();
        view.put("address", status.endpoint().authority());
        view.put("weight", status.endpoint().weight());
        view.put("healthy", status.healthy());
        view.put("ejected", status.ejected());
        view.put("healthCheckPassing", status.healthCheckPassing());
        view.put("inFlight", status.inFlight());
        view.put("consecutiveFailures", status.consecutiveFailures());
        view.put("breaker", group.guarded().breakerState(status.endpoint()).name());
        PoolStats pool = group.poolStats(status.endpoint());
        Map<String, Object> pools = new LinkedHashMap<>();
        pools.put("active", pool.active());
        pools.put("idle", pool.idle());
        pools.put("pending", pool.pending());
        view.put("pool", pools);
        return view;
    }
}
