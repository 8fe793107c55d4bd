package io.parry.micrometer;

import static java.util.Objects.requireNonNull;

import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.Tags;
import io.parry.client.ClientFilter;
import io.parry.client.ClientSender;
import io.parry.client.Endpoint;
import io.parry.client.HttpClient;
import io.parry.client.upstream.Upstream;
import io.parry.http.HttpRequest;
import io.parry.http.HttpResponse;
import io.parry.micrometer.internal.EndpointMeters;
import io.parry.micrometer.internal.PoolGauges;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.ConcurrentHashMap;

/**
 * Micrometer metrics of an {@link HttpClient}: a client filter that times each call per endpoint, and
 * gauges of the client's connection pools.
 *
 * <pre>{@code
 * ClientMetrics metrics = ClientMetrics.of(registry, "users");
 * HttpClient client = HttpClient.builder().filter(metrics).build();
 * metrics.bindPools(client, usersUpstream);
 * }</pre>
 *
 * <table>
 *   <caption>Meters, each tagged {@code client} and {@code endpoint} ({@code host:port})</caption>
 *   <tr><td>{@code parry.client.requests}</td><td>timer: the call until its response head; tag {@code
 *       status}: the status class ({@code 2xx}...) or the failure's simple class name ({@code
 *       UpstreamConnectException}, {@code ResponseTimeoutException}...)</td></tr>
 *   <tr><td>{@code parry.client.connect.failures}</td><td>counter: connections refused, unreachable
 *       or timed out</td></tr>
 *   <tr><td>{@code parry.client.pool.active}, {@code .idle}, {@code .pending}</td><td>gauges of
 *       {@link HttpClient#poolStats(Endpoint)}; also tagged {@code upstream}</td></tr>
 * </table>
 *
 * <p>Added first, the filter times the whole call including the other filters; added last, only the
 * exchange with the endpoint. Thread-safe; the per-endpoint meters are registered on first use.
 */
public final class ClientMetrics implements ClientFilter {
    private final MeterRegistry registry;
    private final String client;
    private final ConcurrentHashMap<Endpoint, EndpointMeters> endpoints = new ConcurrentHashMap<>();

    private ClientMetrics(MeterRegistry registry, String client) {
        this.registry = registry;
        this.client = client;
    }

    /**
     * Metrics of a client, recorded to the registry with the tag {@code client=name}.
     *
     * @throws IllegalArgumentException if the name is blank
     */
    public static ClientMetrics of(MeterRegistry registry, String client) {
        requireNonNull(registry, "registry");
        requireNonNull(client, "client");
        if (client.isBlank()) {
            throw new IllegalArgumentException("client: blank (expected: a name)");
        }
        return new ClientMetrics(registry, client);
    }

    /** Times the call from here to its response head or failure. */
    @Override
    public CompletionStage<HttpResponse> filter(ClientSender next, Endpoint endpoint, HttpRequest request) {
        EndpointMeters meters = meters(endpoint);
        long start = System.nanoTime();
        CompletionStage<HttpResponse> stage;
        try {
            stage = next.send(endpoint, request);
        } catch (RuntimeException e) {
            meters.record(0, e, System.nanoTime() - start);
            return CompletableFuture.failedFuture(e);
        }
        return stage.whenComplete((response, failure) ->
                meters.record(response == null ? 0 : response.status().code(), failure, System.nanoTime() - start));
    }

    /**
     * Registers gauges of the client's pools to each endpoint of the upstream. Call once per client and
     * upstream.
     */
    public void bindPools(HttpClient httpClient, Upstream upstream) {
        requireNonNull(httpClient, "httpClient");
        requireNonNull(upstream, "upstream");
        PoolGauges.register(
                registry,
                "parry.client.pool",
                httpClient,
                upstream,
                Tags.of("client", client, "upstream", upstream.name()));
    }

    @Override
    public String toString() {
        return "ClientMetrics(" + client + ")";
    }

    private EndpointMeters meters(Endpoint endpoint) {
        EndpointMeters meters = endpoints.get(endpoint);
        return meters != null
                ? meters
                : endpoints.computeIfAbsent(
                        endpoint,
                        e -> new EndpointMeters(
                                registry, "parry.client", Tags.of("client", client, "endpoint", e.authority())));
    }
}
