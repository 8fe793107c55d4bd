package io.parry.examples.todo;

import io.parry.demo.todo.TodoService;
import io.parry.server.Server;
import io.parry.startup.Startup;
import java.time.Duration;

/** Starts the Todo-Backend service of {@code parry-demo} on {@code PORT} (default 8080); stops it gracefully on SIGTERM. */
public final class TodoApp {
    private TodoApp() {}

    public static void main(String[] args) {
        Startup.prepare();
        Server server = TodoService.start(Startup.port());
        Startup.onShutdown(() -> server.stop(Duration.ofSeconds(10)));
    }
}
