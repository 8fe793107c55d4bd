package io.parry.demo;

import io.parry.demo.live.LiveRoutes;
import io.parry.demo.todo.TodoService;
import io.parry.server.Handler;
import io.parry.server.Server;
import io.parry.server.routing.Router;
import io.parry.server.websocket.WebSocketEndpoint;

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
        return handler(LiveRoutes.echo());
    }

    /**
     * The service as a handler, over a new empty todo store, with this endpoint at {@code /ws/echo}
     * (whose {@link WebSocketEndpoint#counters() counters} the caller may then measure).
     */
    public static Handler handler(WebSocketEndpoint echo) {
        return Router.builder()
                .get("/ws/echo", echo)
                .get("/sse/ticks", LiveRoutes.ticks())
                .all("/**", TodoService.handler())
                .build();
    }

    /** Starts the service on this port (0 for any free port); returns once it listens. */
    public static Server start(int port) {
        return Server.builder().port(port).handler(handler()).build().start();
    }
}
