package io.parry.gateway.internal.demo;

import io.parry.demo.DemoService;
import io.parry.demo.live.LiveRoutes;
import io.parry.gateway.internal.config.ConfigLoader;
import io.parry.gateway.internal.reload.ConfigSource;
import io.parry.server.Server;
import io.parry.server.health.HealthCheck;
import io.parry.server.health.HealthStatus;
import io.parry.server.websocket.WebSocketCounters;
import io.parry.server.websocket.WebSocketEndpoint;
import java.time.Duration;
import java.util.HashMap;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.atomic.AtomicBoolean;

/**
 * The built-in demo's upstreams: the todo service of {@code parry-demo} and the token issuer's key set, in process on
 * ports of their own, and the demo configuration pointed at them through {@code DEMO_SERVICE_PORT} and {@code
 * DEMO_JWKS_PORT}. Both listen from the start, on ports the system chose, so no other process can take a port
 * between its choice and its use; their set-up (JSON and Bean Validation, the signing key) takes longer than the
 * whole gateway's start and runs after it, on a thread of its own, so {@code /hello} need not wait for it. Until then
 * their requests wait and the {@link #readiness()} check is down.
 */
public final class TodoDemo implements AutoCloseable {
    /** The name the demo configuration's errors and logs give. */
    public static final String SOURCE_NAME = "demo.yaml (built in)";

    private final Server todo;
    private final LateHandler service;
    private final DemoIssuer issuer;
    private final CompletableFuture<Void> ready = new CompletableFuture<>();
    private final AtomicBoolean closed = new AtomicBoolean();
    private final WebSocketEndpoint echo = LiveRoutes.echo();

    private TodoDemo(Server todo, LateHandler service, DemoIssuer issuer) {
        this.todo = todo;
        this.service = service;
        this.issuer = issuer;
    }

    /** Binds the todo service and the token issuer to free ports of 127.0.0.1; their set-up waits for {@link #start()}. */
    public static TodoDemo bind() {
        LateHandler service = new LateHandler();
        Server todo = Server.builder()
                .host("127.0.0.1")
                .port(0)
                .handler(service)
                .build()
                .start();
        try {
            return new TodoDemo(todo, service, DemoIssuer.bind());
        } catch (RuntimeException e) {
            todo.stop(Duration.ZERO);
            throw e;
        }
    }

    /** The todo service's port. */
    public int port() {
        return todo.port();
    }

    /** The counts of the todo service's own {@code /ws/echo} sessions, the upstream side of the demo's echo. */
    public WebSocketCounters echoCounters() {
        return echo.counters();
    }

    /** The demo configuration, its placeholders taken from {@code env} plus the two demo ports. */
    public ConfigSource source(Map<String, String> env) {
        Map<String, String> withTodo = new HashMap<>(env);
        withTodo.put("DEMO_SERVICE_PORT", Integer.toString(todo.port()));
        withTodo.put("DEMO_JWKS_PORT", Integer.toString(issuer.port()));
        return ConfigSource.text(SOURCE_NAME, ConfigLoader.demoYaml(), withTodo);
    }

    /** Sets up the token issuer and the todo service on a daemon thread; the stage completes when both answer. */
    public CompletionStage<Void> start() {
        Thread thread = new Thread(
                () -> {
                    try {
                        issuer.makeKey();
                        service.complete(DemoService.handler(echo));
                        ready.complete(null);
                    } catch (RuntimeException e) {
                        service.fail(e);
                        ready.completeExceptionally(e);
                    }
                },
                "parry-demo-todo");
        thread.setDaemon(true);
        thread.start();
        return ready;
    }

    /**
     * A readiness check that is up once the todo service answers, so that a ready demo answers on every
     * route.
     */
    public HealthCheck readiness() {
        return () -> CompletableFuture.completedFuture(status());
    }

    private HealthStatus status() {
        if (!ready.isDone()) {
            return HealthStatus.down("the todo service is starting");
        }
        return ready.isCompletedExceptionally()
                ? HealthStatus.down("the todo service did not start")
                : HealthStatus.up("the todo service listens on port " + todo.port());
    }

    /** A token the demo's {@code /api/private} route accepts, once {@link #start()} completed. */
    public String token() {
        return issuer.token();
    }

    /** Stops the todo service and the issuer; later calls do nothing. */
    @Override
    public void close() {
        if (closed.compareAndSet(false, true)) {
            todo.stop(Duration.ofSeconds(1));
            issuer.stop();
        }
    }
}
