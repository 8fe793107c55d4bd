package io.parry.examples.todo;

import io.parry.demo.todo.TodoService;
import io.parry.server.Server;
import java.time.Duration;

/** Starts the Todo-Backend service of {@code parry-demo} on {@code PORT} (default 8080); stops it gracefully on SIGTERM. */
public final class TodoApp {
    private TodoApp() {}

    public static void main(String[] args) {
        Server server = TodoService.start(Integer.parseInt(System.getenv().getOrDefault("PORT", "8080")));
        Runtime.getRuntime().addShutdownHook(new Thread(() -> server.stop(Duration.ofSeconds(10)), "parry-shutdown"));
    }
}
