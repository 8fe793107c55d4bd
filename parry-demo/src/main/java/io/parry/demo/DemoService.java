package io.parry.demo;

import io.parry.demo.live.LiveRoutes;
import io.parry.demo.todo.TodoService;
import io.parry.server.Handler;
import io.parry.server.Server;
import io.parry.server.routing.Router;

/**
 * The gateway demo's service: the live routes ({@code /ws/echo}, {@code /sse/ticks}, see {@link
 * LiveRoutes}) and, on every other path, the Todo-Backend API ({@link TodoService}).
 *
 * <pre>{@code
 * Server server = DemoService.start(8080);
 * }</pre>
 */
public final class DemoService {
    private DemoService() {}

    /** The service as a handler, over a new empty todo store. */
    public static Handler handler() {
        return Router.builder()
                .get("/ws/echo", LiveRoutes.echo())
                .get("/sse/ticks", LiveRoutes.ticks())
                .all("/**", TodoService.handler())
                .build();
    }

    /** Starts the service on this port (0 for any free port); returns once it listens. */
    public static Server start(int port) {
        return Server.builder().port(port).handler(handler()).build().start();
    }
}
