package io.parry.gateway.internal.demo;

import io.parry.demo.DemoService;
import io.parry.gateway.internal.config.ConfigLoader;
import io.parry.gateway.internal.reload.ConfigSource;
import io.parry.server.Server;
import io.parry.server.health.HealthCheck;
import io.parry.server.health.HealthStatus;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.time.Duration;
import java.util.HashMap;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.atomic.AtomicBoolean;

/**
 * The built-in demo's upstream: the todo service of {@code parry-demo}, in process on a port of its own, and the demo
 * configuration pointed at it through {@code DEMO_SERVICE_PORT}. The todo service starts after the gateway is
 * ready, on a thread of its own: its JSON and Bean Validation set-up takes longer than the whole
 * gateway's start, and {@code /hello} need not wait for it. Until it listens, {@code /api/todos}
 * answers 503 and the {@link #readiness()} check is down.
 */
public final class TodoDemo implements AutoCloseable {
    /** The name the demo configuration's errors and logs give. */
    public static final String SOURCE_NAME = "demo.yaml (built in)";

    private final int port;
    private final int issuerPort;
    private final CompletableFuture<Server> todo = new CompletableFuture<>();
    private final CompletableFuture<DemoIssuer> issuer = new CompletableFuture<>();
    private final AtomicBoolean closed = new AtomicBoolean();

    private TodoDemo(int port, int issuerPort) {
        this.port = port;
        this.issuerPort = issuerPort;
    }

    /** Picks free ports for the todo service and the token issuer's key set; nothing starts yet. */
    public static TodoDemo withFreePort() {
        try (ServerSocket todo = new ServerSocket(0, 1, InetAddress.getLoopbackAddress());
                ServerSocket issuer = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
            return new TodoDemo(todo.getLocalPort(), issuer.getLocalPort());
        } catch (IOException e) {
            throw new UncheckedIOException("cannot find free ports for the demo's services", e);
        }
    }

    /** The todo service's port. */
    public int port() {
        return port;
    }

    /** The demo configuration, its placeholders taken from {@code env} plus {@code DEMO_SERVICE_PORT}. */
    public ConfigSource source(Map<String, String> env) {
        Map<String, String> withTodo = new HashMap<>(env);
        withTodo.put("DEMO_SERVICE_PORT", Integer.toString(port));
        withTodo.put("DEMO_JWKS_PORT", Integer.toString(issuerPort));
        return ConfigSource.text(SOURCE_NAME, ConfigLoader.demoYaml(), withTodo);
    }

    /**
     * Starts the token issuer and the todo service on a daemon thread; the stage completes when both
     * listen.
     */
    public CompletionStage<Server> start() {
        Thread thread = new Thread(
                () -> {
                    try {
                        issuer.complete(DemoIssuer.start(issuerPort));
                        todo.complete(DemoService.start(port));
                    } catch (RuntimeException e) {
                        issuer.completeExceptionally(e);
                        todo.completeExceptionally(e);
                    }
                },
                "parry-demo-todo");
        thread.setDaemon(true);
        thread.start();
        return todo;
    }

    /**
     * A readiness check that is up once the todo service listens, so that a ready demo answers on every
     * route.
     */
    public HealthCheck readiness() {
        return () -> CompletableFuture.completedFuture(status());
    }

    private HealthStatus status() {
        if (!todo.isDone()) {
            return HealthStatus.down("the todo service is starting");
        }
        return todo.isCompletedExceptionally()
                ? HealthStatus.down("the todo service did not start")
                : HealthStatus.up("the todo service listens on port " + port);
    }

    /** A token the demo's {@code /api/private} route accepts, once {@link #start()} completed. */
    public String token() {
        return issuer.join().token();
    }

    /** Stops the todo service and the issuer if they started; later calls do nothing. */
    @Override
    public void close() {
        if (closed.compareAndSet(false, true)) {
            todo.thenAccept(server -> server.stop(Duration.ofSeconds(1)));
            issuer.thenAccept(DemoIssuer::stop);
        }
    }
}
