package io.parry.demo.todo;

import io.parry.server.Handler;
import io.parry.server.Server;

/**
 * The Todo-Backend API (todobackend.com) with its todos in memory: the root lists ({@code GET}),
 * creates ({@code POST}) and deletes all ({@code DELETE}) todos; each todo's absolute {@code url}
 * (built from {@code Host}, or {@code X-Forwarded-Proto} and {@code X-Forwarded-Host} behind a proxy)
 * answers {@code GET}, {@code PATCH} and {@code DELETE}. CORS is open, so the browser-based spec runner
 * can call it.
 *
 * <pre>{@code
 * Server server = TodoService.start(8080);
 * }</pre>
 *
 * <p>Its first start takes a while: the JSON codec and Bean Validation load many classes.
 */
public final class TodoService {
    private TodoService() {}

    /** The API as a handler, over a new empty store. */
    public static Handler handler() {
        return TodoRoutes.of(new TodoStore());
    }

    /** Starts the API on this port (0 for any free port), with an empty store; returns once it listens. */
    public static Server start(int port) {
        return Server.builder().port(port).handler(handler()).build().start();
    }
}
