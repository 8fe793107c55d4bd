package io.parry.micrometer;

import static java.util.Objects.requireNonNull;

import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.FunctionCounter;
import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.Tag;
import io.micrometer.core.instrument.Tags;
import io.parry.http.HttpRequest;
import io.parry.http.HttpResponse;
import io.parry.micrometer.internal.RequestTimers;
import io.parry.server.Filter;
import io.parry.server.Handler;
import io.parry.server.Overload;
import io.parry.server.OverloadReason;
import io.parry.server.Rejection;
import io.parry.server.RequestContext;
import io.parry.server.RequestListener;
import io.parry.server.RequestLog;
import io.parry.server.Server;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.LongAdder;

/**
 * Micrometer metrics of a Parry server. As the server's {@link RequestListener} it times every request,
 * refused ones included; as a {@link Filter} it counts the requests in flight; {@link #bind(Server)}
 * adds what the server itself counts.
 *
 * <pre>{@code
 * ServerMetrics metrics = ServerMetrics.of(registry);
 * Server server = Server.builder()
 *         .handler(router.with(metrics))
 *         .listener(metrics)
 *         .build();
 * metrics.bind(server);
 * }</pre>
 *
 * <table>
 *   <caption>Meters</caption>
 *   <tr><td>{@code parry.server.requests}</td><td>timer: head to last response byte; tags {@code route}
 *       (the pattern, {@code UNMATCHED} when no router matched, never the raw path), {@code method} (a
 *       standard method or {@code OTHER}), {@code status} ({@code 2xx}..., {@code CLIENT_CLOSED} when
 *       the response was not written in full)</td></tr>
 *   <tr><td>{@code parry.server.requests.active}</td><td>gauge: requests in the filter whose response
 *       head is not ready yet</td></tr>
 *   <tr><td>{@code parry.server.bytes.in}, {@code .out}</td><td>counters: request and response body
 *       bytes</td></tr>
 *   <tr><td>{@code parry.server.connections}</td><td>gauge: open connections</td></tr>
 *   <tr><td>{@code parry.server.rejections}</td><td>counter per {@link Rejection} ({@code
 *       reason})</td></tr>
 *   <tr><td>{@code parry.server.workers.tasks}</td><td>gauge: blocking tasks running or queued</td></tr>
 *   <tr><td>{@code parry.server.overload.shed}</td><td>counter per {@link OverloadReason} ({@code
 *       reason}): requests an {@link Overload} shed, after {@link #bind(Overload)}</td></tr>
 *   <tr><td>{@code parry.server.overload.inflight}</td><td>gauge: requests in its filters' handlers</td></tr>
 * </table>
 *
 * <p>Recording runs on the event loops: per request a map look-up by route, an array read and a timer
 * update; timers are registered on first use and cached. Thread-safe; one instance may serve several
 * servers only if they are told apart by {@link Builder#tags(Iterable) tags}.
 */
public final class ServerMetrics implements RequestListener, Filter {
    private final MeterRegistry registry;
    private final Tags tags;
    private final RequestTimers timers;
    private final Counter bytesIn;
    private final Counter bytesOut;
    private final LongAdder active = new LongAdder();
    private final AtomicBoolean activeRegistered = new AtomicBoolean();

    private ServerMetrics(Builder builder) {
        this.registry = builder.registry;
        this.tags = builder.tags;
        this.timers = new RequestTimers(registry, tags, builder.percentileHistogram);
        this.bytesIn = Counter.builder("parry.server.bytes.in")
                .description("Request body bytes received")
                .tags(tags)
                .register(registry);
        this.bytesOut = Counter.builder("parry.server.bytes.out")
                .description("Response body bytes written")
                .tags(tags)
                .register(registry);
    }

    /** Metrics recorded to the registry, without extra tags or percentile histograms. */
    public static ServerMetrics of(MeterRegistry registry) {
        return builder(registry).build();
    }

    /** A builder of metrics recorded to the registry. */
    public static Builder builder(MeterRegistry registry) {
        return new Builder(requireNonNull(registry, "registry"));
    }

    /**
     * Registers the meters that read the server's own counts: open connections, rejections by reason
     * and worker tasks. They hold the server weakly and read NaN once it is collected. Call once per
     * server, before or after it starts.
     */
    public void bind(Server server) {
        requireNonNull(server, "server");
        Gauge.builder("parry.server.connections", server, Server::connections)
                .description("Open connections")
                .tags(tags)
                .register(registry);
        for (Rejection reason : Rejection.values()) {
            FunctionCounter.builder("parry.server.rejections", server, s -> s.rejections(reason))
                    .description("Requests and connections the server refused before any handler ran")
                    .tags(tags)
                    .tag("reason", reason.name())
                    .register(registry);
        }
        Gauge.builder("parry.server.workers.tasks", server, Server::workerTasks)
                .description("Blocking tasks running or waiting on the worker executor")
                .tags(tags)
                .register(registry);
    }

    /**
     * Registers the meters of an overload guard: the requests it shed by reason and those in flight.
     * They hold it weakly. Call once per guard.
     */
    public void bind(Overload overload) {
        requireNonNull(overload, "overload");
        for (OverloadReason reason : OverloadReason.values()) {
            FunctionCounter.builder("parry.server.overload.shed", overload, o -> o.shed(reason))
                    .description("Requests shed with 503 because the process was overloaded")
                    .tags(tags)
                    .tag("reason", reason.name())
                    .register(registry);
        }
        Gauge.builder("parry.server.overload.inflight", overload, Overload::inFlight)
                .description("Requests in the overload filters' handlers")
                .tags(tags)
                .register(registry);
    }

    /**
     * Records a request that ended: its timer and body bytes. Called by the server on the connection's
     * event loop.
     */
    @Override
    public void requestEnded(RequestLog log) {
        timers.record(log);
        if (log.bytesIn() > 0) {
            bytesIn.increment(log.bytesIn());
        }
        if (log.bytesOut() > 0) {
            bytesOut.increment(log.bytesOut());
        }
    }

    /**
     * Counts the request as active until {@code next} has produced its response head or failed; a
     * response body still streaming after that is not counted. Wrap the outermost handler with it.
     */
    @Override
    public CompletionStage<HttpResponse> filter(Handler next, RequestContext ctx, HttpRequest request)
            throws Exception {
        // Registered on first use: without the filter a gauge reading 0 would mislead. The first requests
        // arrive on several event loops at once, and a gauge registered twice makes Micrometer warn.
        if (!activeRegistered.get() && activeRegistered.compareAndSet(false, true)) {
            Gauge.builder("parry.server.requests.active", active, LongAdder::sum)
                    .description("Requests whose response head is not ready yet")
                    .tags(tags)
                    .register(registry);
        }
        active.increment();
        CompletionStage<HttpResponse> stage;
        try {
            stage = next.handle(ctx, request);
        } catch (Exception | Error e) {
            active.decrement();
            throw e;
        }
        if (stage == null) {
            active.decrement();
            return CompletableFuture.failedFuture(new NullPointerException("the handler returned null"));
        }
        return stage.whenComplete((response, failure) -> active.decrement());
    }

    @Override
    public String toString() {
        return "ServerMetrics" + tags;
    }

    /** Builds {@link ServerMetrics}; not thread-safe. */
    public static final class Builder {
        private final MeterRegistry registry;
        private Tags tags = Tags.empty();
        private boolean percentileHistogram;

        private Builder(MeterRegistry registry) {
            this.registry = registry;
        }

        /**
         * Adds tags to every meter, for example {@code server=admin} to tell two servers of one process
         * apart (default none).
         */
        public Builder tags(Iterable<Tag> tags) {
            this.tags = this.tags.and(requireNonNull(tags, "tags"));
            return this;
        }

        /**
         * Whether request timers publish a percentile histogram, so that percentiles can be computed
         * across instances (default false: each timer then costs some 70 more series in Prometheus).
         */
        public Builder percentileHistogram(boolean enabled) {
            this.percentileHistogram = enabled;
            return this;
        }

        /** The metrics; registers the byte counters. */
        public ServerMetrics build() {
            return new ServerMetrics(this);
        }
    }
}
