package io.parry.examples.todo;

import io.parry.server.Server;
import java.time.Duration;

/** Starts the todo service on {@code PORT} (default 8080) and stops it gracefully on SIGTERM. */
public final class TodoApp {
    private TodoApp() {}

    public static void main(String[] args) {
        Server server = start(Integer.parseInt(System.getenv().getOrDefault("PORT", "8080")));
        Runtime.getRuntime().addShutdownHook(new Thread(() -> server.stop(Duration.ofSeconds(10)), "parry-shutdown"));
    }

    /** Starts the service on this port (0 for any free port), with an empty store. */
    public static Server start(int port) {
        return Server.builder()
                .port(port)
                .handler(TodoRoutes.of(new TodoStore()))
                .build()
                .start();
    }
}
