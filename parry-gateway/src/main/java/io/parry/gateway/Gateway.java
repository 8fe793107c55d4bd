package io.parry.gateway;

import static java.util.Objects.requireNonNull;

import io.micrometer.core.instrument.binder.MeterBinder;
import io.parry.gateway.internal.admin.AdminApi;
import io.parry.gateway.internal.admin.AdminToken;
import io.parry.gateway.internal.admin.GatewayHealth;
import io.parry.gateway.internal.config.AccessLogKind;
import io.parry.gateway.internal.config.ConfigException;
import io.parry.gateway.internal.config.GatewayConfig;
import io.parry.gateway.internal.metrics.GatewayMetrics;
import io.parry.gateway.internal.ratelimit.RateLimits;
import io.parry.gateway.internal.reload.ActiveConfig;
import io.parry.gateway.internal.reload.ConfigFileWatcher;
import io.parry.gateway.internal.reload.ConfigSource;
import io.parry.gateway.internal.reload.ReloadTrigger;
import io.parry.gateway.internal.reload.Reloader;
import io.parry.gateway.internal.routing.HttpsRedirect;
import io.parry.gateway.internal.upstream.GroupObserver;
import io.parry.gateway.internal.upstream.Retirement;
import io.parry.gateway.internal.upstream.UpstreamRegistry;
import io.parry.ratelimit.RateLimitObserver;
import io.parry.server.Handler;
import io.parry.server.Server;
import io.parry.server.ServerOptions;
import io.parry.server.accesslog.AccessLog;
import io.parry.server.accesslog.AccessLogFormat;
import io.parry.server.health.Health;
import io.parry.server.health.HealthCheck;
import java.io.IOException;
import java.io.OutputStream;
import java.io.UncheckedIOException;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.function.Consumer;
import java.util.function.UnaryOperator;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The Parry API gateway: routes from a YAML configuration file, served on one listener, with an
 * admin listener beside it, reloaded without a restart.
 *
 * <pre>{@code
 * Gateway gateway = Gateway.start(Path.of("gateway.yaml"));
 * // ... edit the file, or:
 * ReloadResult result = gateway.reload();
 * gateway.stop(Duration.ofSeconds(10));
 * }</pre>
 *
 * <p>A reload reads the file again and swaps the new route table in atomically: requests in flight
 * finish on the table they started with, upstream groups whose settings did not change keep their
 * connection pools, breakers and health state, and the others are closed once their last request
 * ends. A configuration that is not valid is rejected whole and the previous one keeps serving. The
 * listeners, limits, server timeouts, access log, metrics and tracing are read at start only.
 *
 * <p>The admin listener answers liveness ({@code /admin/health}) and readiness ({@code /admin/ready})
 * from the gateway's own checks and those added with {@link Builder#livenessCheck} and {@link
 * Builder#readinessCheck}, and serves the metrics to Prometheus ({@code /admin/metrics}).
 *
 * <p>Thread-safe. {@link #start} and {@link #stop} block; the gateway runs on its servers' event loops
 * and a few daemon threads of its own (reloads, file watching, retiring upstream groups).
 */
public final class Gateway implements AutoCloseable {
    private static final Logger log = LoggerFactory.getLogger(Gateway.class);
    private static final Duration RETIRE_QUIET = Duration.ofMillis(500);
    private static final Duration RETIRE_GRACE = Duration.ofMinutes(10);
    private static final Duration CLOSE_GRACE = Duration.ofSeconds(10);

    private final Reloader reloader;
    private final UpstreamRegistry upstreams;
    private final RateLimits rateLimits;
    private final GatewayMetrics metrics;
    private final AccessLog accessLog;
    private final Health health;
    private final AtomicBoolean stopped = new AtomicBoolean();
    private final CompletableFuture<Void> terminated = new CompletableFuture<>();
    private volatile boolean draining;
    private volatile Server server;
    private volatile Server redirect;
    private final List<Server> extraListeners = new ArrayList<>();
    private volatile ServerOptions listenerOptions;
    private volatile Server admin;
    private volatile ConfigFileWatcher watcher;

    /** Sets up what lives as long as the gateway, as the first configuration asks; starts no listener. */
    private Gateway(ConfigSource source, GatewayConfig first, Builder builder) {
        this.metrics = GatewayMetrics.start(first.metrics()).orElse(null);
        GroupObserver observer = metrics != null ? metrics : GroupObserver.NONE;
        this.upstreams = new UpstreamRegistry(new Retirement(RETIRE_QUIET, RETIRE_GRACE), observer);
        this.rateLimits = new RateLimits(metrics != null ? metrics.rateLimits() : RateLimitObserver.NONE);
        this.reloader = new Reloader(source, upstreams, rateLimits);
        this.accessLog = accessLog(first.accessLog(), builder);
        this.health = builder.health.build(this::isDraining, reloader::version);
    }

    /**
     * Starts a gateway on this configuration file, its placeholders taken from the environment, and
     * reloads it when the file changes.
     *
     * @throws IllegalArgumentException if the configuration is not valid; the message lists every
     *     error with its line and column
     * @throws IllegalStateException if a listener cannot bind or an upstream group cannot start
     * @throws UncheckedIOException if the file cannot be read
     */
    public static Gateway start(Path configFile) {
        return builder(configFile).start();
    }

    /** A builder for a gateway on this configuration file. */
    public static Builder builder(Path configFile) {
        requireNonNull(configFile, "configFile");
        return new Builder(configFile, null);
    }

    /** A builder for a gateway on a configuration that is not a file, such as the built-in demo. */
    static Builder builder(ConfigSource source) {
        return new Builder(null, source);
    }

    /** The port of the gateway listener; the one the system chose when the configuration says 0. */
    public int port() {
        return server.port();
    }

    /** The port of the admin listener. */
    public int adminPort() {
        return admin.port();
    }

    /** The version of the configuration serving now: 1 at start, one more for each applied change. */
    public long configVersion() {
        return reloader.version();
    }

    /**
     * Reads the configuration again and applies it; blocks until it is live or rejected, so it must
     * not be called on an event loop.
     *
     * @return the version serving afterwards, or why the new configuration was rejected
     */
    public ReloadResult reload() {
        return reloadAsync().toCompletableFuture().join();
    }

    /** Like {@link #reload()} without blocking: the stage completes on the gateway's reload thread. */
    public CompletionStage<ReloadResult> reloadAsync() {
        return reloader.reload(ReloadTrigger.API);
    }

    /** Whether a stop has begun: readiness reports false from this moment. */
    public boolean isDraining() {
        return draining;
    }

    /** Whether a stop has been asked for, perhaps a moment before draining begins. */
    boolean isStopping() {
        return stopped.get();
    }

    /**
     * Stops gracefully: readiness turns false, the gateway listener stops accepting and waits up to
     * {@code grace} for requests in flight, the access log writes its last lines, then the admin
     * listener stops and the upstream groups close. Returns when all is stopped; a call while another
     * stop runs waits for it to finish.
     */
    public void stop(Duration grace) {
        requireNonNull(grace, "grace");
        if (!stopped.compareAndSet(false, true)) {
            terminated.join();
            return;
        }
        try {
            draining = true;
            log.info("Draining: readiness is false; waiting up to {} ms for requests in flight", grace.toMillis());
            release(grace);
            log.info("Gateway stopped");
        } finally {
            terminated.complete(null);
        }
    }

    /** Stops with a grace period of ten seconds. */
    @Override
    public void close() {
        stop(CLOSE_GRACE);
    }

    /** Registers these meters with the gateway's registries, if any (the demo's own service). */
    void bindMeters(MeterBinder binder) {
        if (metrics != null) {
            metrics.bind(binder);
        }
    }

    /** Also used in triggers outside this class: SIGHUP. */
    void reload(ReloadTrigger trigger) {
        reloader.reload(trigger);
    }

    private void startServing(ConfigSource source, GatewayConfig config, boolean watchFile, long started) {
        ActiveConfig active = reloader.start(config);
        Server dataPlane = dataPlane(config.listener());
        if (metrics != null) {
            metrics.bind(dataPlane);
            metrics.server().bind(reloader.overload());
        }
        server = dataPlane.start();
        listenerOptions = config.listener();
        if (config.redirectListener() != null) {
            redirect = Server.builder()
                    .options(config.redirectListener())
                    .handler(new HttpsRedirect(port()))
                    .options(options -> options.eventLoopThreads(1))
                    .build()
                    .start();
        }
        Optional<Handler> scrape = metrics != null ? metrics.scrapeHandler() : Optional.empty();
        admin = Server.builder()
                .options(config.admin())
                .handler(AdminToken.protect(AdminApi.of(reloader, upstreams, health, scrape), config.adminToken()))
                .options(options -> options.eventLoopThreads(1))
                .build()
                .start();
        if (watchFile && source.file().isPresent()) {
            watcher = watch(source.file().get());
        }
        log.info(
                "Gateway listening on {}, admin on {}; configuration version {}{} from {}: {} routes, {} upstream groups;"
                        + " started in {} ms",
                url(config.listener(), port()),
                url(config.admin(), adminPort()),
                active.version(),
                label(config),
                source,
                config.routes().size(),
                config.upstreams().size(),
                (System.nanoTime() - started) / 1_000_000);
    }

    /** The port of the redirect listener: for tests; -1 when there is none. */
    int redirectPort() {
        return redirect == null ? -1 : redirect.port();
    }

    /**
     * Starts another listener serving the same routes as the configured one, its options that
     * listener's changed by {@code edits} (another port, TLS): the demo's HTTPS listener, started after
     * the gateway is ready. Stopped with the gateway.
     *
     * @return the listener's port
     * @throws IllegalStateException if the gateway is stopping or the listener cannot bind
     */
    int startExtraListener(UnaryOperator<ServerOptions.Builder> edits) {
        Server extra = dataPlane(edits.apply(listenerOptions.toBuilder()).build());
        synchronized (extraListeners) {
            if (stopped.get()) {
                throw new IllegalStateException("the gateway is stopping");
            }
            extraListeners.add(extra.start());
        }
        return extra.port();
    }

    /** A gateway listener, not started: the live route table behind the access log and metrics. */
    private Server dataPlane(ServerOptions listener) {
        // The router is read once per request: a request finishes on the router it started with.
        Handler routes = (ctx, request) -> reloader.table().handle(ctx, request);
        Server.Builder builder = Server.builder()
                .options(listener)
                .overload(reloader.overload())
                .handler(metrics != null ? routes.with(metrics.server()) : routes);
        if (accessLog != null) {
            builder.listener(accessLog);
        }
        if (metrics != null) {
            builder.listener(metrics.server()).listener(metrics.proxy());
        }
        return builder.build();
    }

    /**
     * Stops what was started, in order: triggers, the gateway listener, the access log, the admin
     * listener, upstreams, metric registries.
     */
    private void release(Duration grace) {
        if (watcher != null) {
            watcher.close();
        }
        reloader.close();
        if (redirect != null) {
            redirect.stop(Duration.ofSeconds(1));
        }
        synchronized (extraListeners) {
            extraListeners.forEach(extra -> extra.stop(grace));
        }
        if (server != null) {
            server.stop(grace);
        }
        if (accessLog != null) {
            accessLog.close();
        }
        if (admin != null) {
            admin.stop(Duration.ofSeconds(1));
        }
        upstreams.close();
        rateLimits.close();
        if (metrics != null) {
            metrics.close();
        }
    }

    /**
     * The access log of this kind, to the logger {@code parry.access} unless the builder gave a sink or
     * a stream; null if off.
     */
    private static AccessLog accessLog(AccessLogKind kind, Builder gateway) {
        if (kind == AccessLogKind.OFF) {
            return null;
        }
        AccessLog.Builder builder = AccessLog.builder()
                .format(kind == AccessLogKind.COMBINED ? AccessLogFormat.combined() : AccessLogFormat.json());
        if (gateway.accessLogSink != null) {
            builder.sink(gateway.accessLogSink);
        } else if (gateway.accessLogOutput != null) {
            builder.output(gateway.accessLogOutput);
        }
        return builder.build();
    }

    private ConfigFileWatcher watch(Path file) {
        try {
            return ConfigFileWatcher.start(file, () -> reloader.reload(ReloadTrigger.FILE_CHANGE));
        } catch (IOException e) {
            log.warn("Cannot watch {} for changes ({}); reload with SIGHUP or POST /admin/reload", file, e.toString());
            return null;
        }
    }

    private static String url(ServerOptions listener, int port) {
        return (listener.tls().isPresent() ? "https://" : "http://") + listener.host() + ":" + port;
    }

    private static String label(GatewayConfig config) {
        return config.version() == null || config.version().isEmpty() ? "" : " (" + config.version() + ")";
    }

    /** Builds and starts a {@link Gateway}; not thread-safe. */
    public static final class Builder {
        private final Path file;
        private final ConfigSource source;
        private final GatewayHealth health = new GatewayHealth();
        private Map<String, String> environment = System.getenv();
        private boolean watchFile = true;
        private Consumer<String> accessLogSink;
        private OutputStream accessLogOutput;

        private Builder(Path file, ConfigSource source) {
            this.file = file;
            this.source = source;
        }

        /**
         * Sets the variables {@code ${NAME}} and {@code ${NAME:default}} placeholders are taken from
         * (default: the process environment).
         */
        public Builder environment(Map<String, String> environment) {
            this.environment = Map.copyOf(requireNonNull(environment, "environment"));
            return this;
        }

        /** Sets whether a change of the file reloads it (default true). */
        public Builder watchFile(boolean watchFile) {
            this.watchFile = watchFile;
            return this;
        }

        /**
         * Adds a readiness check of the application's: {@code GET /admin/ready} answers 503, with the
         * check's detail, while it is down, fails or takes longer than {@code timeout}. The checks run
         * in parallel on every request to {@code /admin/ready}; {@link HealthCheck#check()} is called
         * on the admin listener's event loop and must not block (wrap a blocking probe with {@link
         * HealthCheck#blocking}). The gateway's own readiness checks are {@code server} (down once a
         * stop begins) and {@code config} (down until a configuration is live).
         *
         * <pre>{@code
         * Gateway.builder(Path.of("gateway.yaml"))
         *         .readinessCheck(
         *                 "cache",
         *                 () -> cache.ping().thenApply(ok -> ok ? HealthStatus.up() : HealthStatus.down("no cache")),
         *                 Duration.ofSeconds(1))
         *         .start();
         * }</pre>
         *
         * @throws IllegalArgumentException if the name is empty, {@code server}, {@code config} or
         *     already used by a readiness check, or the timeout is not positive
         */
        public Builder readinessCheck(String name, HealthCheck check, Duration timeout) {
            health.readiness(
                    requireNonNull(name, "name"), requireNonNull(check, "check"), requireNonNull(timeout, "timeout"));
            return this;
        }

        /**
         * Adds a liveness check of the application's: {@code GET /admin/health} answers 503, with the
         * check's detail, while it is down, fails or takes longer than {@code timeout}, so that a
         * supervisor restarts the process. Run as readiness checks are; the gateway has none of its own.
         *
         * @throws IllegalArgumentException if the name is empty or already used by a liveness check, or
         *     the timeout is not positive
         */
        public Builder livenessCheck(String name, HealthCheck check, Duration timeout) {
            health.liveness(
                    requireNonNull(name, "name"), requireNonNull(check, "check"), requireNonNull(timeout, "timeout"));
            return this;
        }

        /** Sends the access log's lines to this sink instead of the logger {@code parry.access}: for tests. */
        Builder accessLogSink(Consumer<String> sink) {
            this.accessLogSink = requireNonNull(sink, "sink");
            return this;
        }

        /**
         * Writes the access log's lines to this stream, many lines a write, instead of the logger {@code
         * parry.access}: for the jar, whose logging writes to the console anyway.
         */
        Builder accessLogOutput(OutputStream output) {
            this.accessLogOutput = requireNonNull(output, "output");
            return this;
        }

        /**
         * Loads the configuration, starts the upstream groups and both listeners, and returns once
         * they accept connections.
         *
         * @throws IllegalArgumentException if the configuration is not valid; the message lists every
         *     error with its line and column
         * @throws IllegalStateException if a listener cannot bind or an upstream group cannot start
         * @throws UncheckedIOException if the file cannot be read
         */
        public Gateway start() {
            long started = System.nanoTime();
            ConfigSource configSource = source != null ? source : ConfigSource.file(file, environment);
            GatewayConfig config;
            try {
                config = configSource.load();
            } catch (ConfigException e) {
                throw new IllegalArgumentException(e.getMessage(), e);
            }
            Gateway gateway = new Gateway(configSource, config, this);
            try {
                gateway.startServing(configSource, config, watchFile, started);
                return gateway;
            } catch (RuntimeException e) {
                gateway.stopped.set(true);
                gateway.release(Duration.ZERO);
                gateway.terminated.complete(null);
                throw e;
            }
        }
    }
}
