package io.parry.gateway.internal.reload;

import static java.util.Objects.requireNonNull;

import io.parry.gateway.ReloadResult;
import io.parry.gateway.internal.config.ConfigException;
import io.parry.gateway.internal.config.GatewayConfig;
import io.parry.gateway.internal.ratelimit.RateLimits;
import io.parry.gateway.internal.routing.AuthResources;
import io.parry.gateway.internal.routing.RouteCompiler;
import io.parry.gateway.internal.upstream.UpstreamRegistry;
import io.parry.ratelimit.RateLimitObserver;
import io.parry.server.Overload;
import io.parry.server.OverloadOptions;
import io.parry.server.routing.Router;
import java.io.UncheckedIOException;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicReference;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Loads the configuration and swaps it in: starts the upstream groups it adds or changes (keeping
 * the equal ones with their pools), prepares the routes' rate limiters (keeping the buckets of those
 * whose limit is unchanged), compiles the route table, makes it live with one atomic write,
 * then retires the groups no longer used. A configuration that fails at any step is rejected whole:
 * what it started is closed, the previous version keeps serving, and the errors are logged once and
 * kept for the admin API. Reloads run one at a time on a thread of their own, whatever triggers them.
 */
public final class Reloader implements AutoCloseable {
    private static final Logger log = LoggerFactory.getLogger(Reloader.class);

    private final ConfigSource source;
    private final UpstreamRegistry upstreams;
    private final AuthResources authResources = new AuthResources();
    private final RateLimits rateLimits;
    private final Overload overload = Overload.of(OverloadOptions.off());
    private final AtomicReference<ActiveConfig> active = new AtomicReference<>();
    private final ExecutorService executor = Executors.newSingleThreadExecutor(task -> {
        Thread thread = new Thread(task, "parry-gateway-reload");
        thread.setDaemon(true);
        return thread;
    });
    private volatile ReloadFailure lastFailure;

    /** A reloader of this source's configuration over these upstream groups; nothing is live yet. */
    public Reloader(ConfigSource source, UpstreamRegistry upstreams) {
        this(source, upstreams, new RateLimits(RateLimitObserver.NONE));
    }

    /** A reloader that also keeps the routes' rate limiters across reloads. */
    public Reloader(ConfigSource source, UpstreamRegistry upstreams, RateLimits rateLimits) {
        this.source = requireNonNull(source, "source");
        this.upstreams = requireNonNull(upstreams, "upstreams");
        this.rateLimits = requireNonNull(rateLimits, "rateLimits");
    }

    /**
     * What sheds the routes' requests: its thresholds are the live configuration's {@code overload},
     * and the gateway's listeners sample it.
     */
    public Overload overload() {
        return overload;
    }

    /**
     * Applies the first configuration, as version 1.
     *
     * @throws ConfigException if the configuration is not valid
     * @throws IllegalStateException if its upstream groups or routes cannot be built
     */
    public ActiveConfig start(GatewayConfig config) {
        List<String> errors = new ArrayList<>();
        ActiveConfig first = swapIn(config, 1, errors);
        if (first == null) {
            throw new IllegalStateException(
                    "The configuration from " + source + " cannot be used:\n  " + String.join("\n  ", errors));
        }
        return first;
    }

    /** Reloads on the reload thread; the stage completes when the new version is live or rejected. */
    public CompletableFuture<ReloadResult> reload(ReloadTrigger trigger) {
        requireNonNull(trigger, "trigger");
        try {
            return CompletableFuture.supplyAsync(() -> reloadNow(trigger), executor)
                    .whenComplete((result, failure) -> {
                        // A failure no rule expects would otherwise sit unseen in the stage a trigger ignores.
                        if (failure != null) {
                            log.error(
                                    "Reload on {} failed unexpectedly; the live version keeps serving",
                                    trigger,
                                    failure);
                        }
                    });
        } catch (RejectedExecutionException stopped) {
            return CompletableFuture.completedFuture(
                    ReloadResult.rejected(version(), List.of("the gateway is stopping")));
        }
    }

    /** The live configuration. */
    public ActiveConfig active() {
        return active.get();
    }

    /** The live router: one atomic read. */
    public Router table() {
        return active.get().table();
    }

    /** The live version; 0 before the first configuration. */
    public long version() {
        ActiveConfig current = active.get();
        return current == null ? 0 : current.version();
    }

    /** The last rejected reload, if no reload succeeded since. */
    public Optional<ReloadFailure> lastFailure() {
        return Optional.ofNullable(lastFailure);
    }

    /** Stops the reload thread, waiting a few seconds for a reload under way to finish. */
    @Override
    public void close() {
        executor.shutdown();
        try {
            if (!executor.awaitTermination(5, TimeUnit.SECONDS)) {
                log.warn("A reload was still running when the gateway stopped");
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
        authResources.close();
    }

    private ReloadResult reloadNow(ReloadTrigger trigger) {
        long started = System.nanoTime();
        ActiveConfig previous = active.get();
        GatewayConfig config;
        try {
            config = source.load();
        } catch (ConfigException e) {
            List<String> errors = new ArrayList<>();
            e.errors().forEach(error -> errors.add(error.toString()));
            return reject(trigger, previous, errors);
        } catch (UncheckedIOException e) {
            return reject(trigger, previous, List.of(e.getMessage()));
        }
        if (config.equals(previous.config())) {
            lastFailure = null;
            // The watcher also sees the writes of a file that a trigger has already reloaded.
            if (trigger == ReloadTrigger.FILE_CHANGE) {
                log.debug(
                        "Reload on {}: {} is unchanged; version {} keeps serving", trigger, source, previous.version());
            } else {
                log.info(
                        "Reload on {}: {} is unchanged; version {} keeps serving", trigger, source, previous.version());
            }
            return ReloadResult.applied(previous.version());
        }
        List<String> errors = new ArrayList<>();
        ActiveConfig next = swapIn(config, previous.version() + 1, errors);
        if (next == null) {
            return reject(trigger, previous, errors);
        }
        lastFailure = null;
        ConfigDiff diff = ConfigDiff.between(previous.config(), config);
        log.info(
                "Applied configuration version {}{} from {} on {} in {} ms; {}",
                next.version(),
                label(config),
                source,
                trigger,
                (System.nanoTime() - started) / 1_000_000,
                diff);
        if (!diff.needRestart().isEmpty()) {
            log.warn(
                    "Changes to {} take effect when the gateway restarts; the running listeners keep their settings",
                    diff.needRestart());
        }
        return ReloadResult.applied(next.version());
    }

    /** Builds and swaps in the configuration; on failure adds the errors, closes what it started and returns null. */
    private ActiveConfig swapIn(GatewayConfig config, long version, List<String> errors) {
        UpstreamRegistry.Change change = upstreams.prepare(config.upstreams());
        if (!change.errors().isEmpty()) {
            upstreams.abandon(change);
            errors.addAll(change.errors());
            return null;
        }
        RateLimits.Change limits = rateLimits.prepare(config.forwarding(), config.redis());
        RouteCompiler.Result compiled = RouteCompiler.compile(config, change.groups(), authResources, limits, overload);
        if (compiled.table() == null) {
            upstreams.abandon(change);
            limits.abandon();
            errors.addAll(compiled.errors());
            return null;
        }
        ActiveConfig next = new ActiveConfig(version, config, compiled.table(), change.groups(), Instant.now());
        overload.update(config.overload());
        active.set(next);
        upstreams.commit(change);
        limits.commit();
        return next;
    }

    private ReloadResult reject(ReloadTrigger trigger, ActiveConfig previous, List<String> errors) {
        lastFailure = new ReloadFailure(Instant.now(), trigger.toString(), List.copyOf(errors));
        log.error(
                "Rejected the configuration from {} on {}; version {} keeps serving:\n  {}",
                source,
                trigger,
                previous.version(),
                String.join("\n  ", errors));
        return ReloadResult.rejected(previous.version(), errors);
    }

    private static String label(GatewayConfig config) {
        return config.version() == null || config.version().isEmpty() ? "" : " (" + config.version() + ")";
    }
}
