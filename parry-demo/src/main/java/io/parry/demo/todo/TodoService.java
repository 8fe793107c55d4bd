package io.parry.demo.todo;

import io.parry.annotations.ControllerRoutes;
import io.parry.http.HttpMethod;
import io.parry.json.JsonCodec;
import io.parry.json.JsonEndpoints;
import io.parry.openapi.OpenApi;
import io.parry.server.Handler;
import io.parry.server.Server;
import io.parry.server.cors.CorsFilter;
import io.parry.server.routing.Router;
import io.parry.validation.BeanValidator;

/**
 * The Todo-Backend API (todobackend.com) with its todos in memory: the root lists ({@code GET}),
 * creates ({@code POST}) and deletes all ({@code DELETE}) todos; each todo's absolute {@code url}
 * (built from {@code Host}, or {@code X-Forwarded-Proto} and {@code X-Forwarded-Host} behind a proxy)
 * answers {@code GET}, {@code PATCH} and {@code DELETE}. CORS is open, so the browser-based spec runner
 * can call it. Its OpenAPI document is at {@code /openapi.json} (and {@code .yaml}), its documentation
 * page at {@code /docs}.
 *
 * <pre>{@code
 * Server server = TodoService.start(8080);
 * }</pre>
 *
 * <p>The JSON codec and Bean Validation load many classes; Bean Validation does it on a thread of its
 * own while the server starts.
 */
public final class TodoService {
    private TodoService() {}

    /** The API as a handler, over a new empty store, with its OpenAPI document and documentation page. */
    public static Handler handler() {
        JsonCodec codec = JsonCodec.ofDefault();
        JsonEndpoints json = JsonEndpoints.builder()
                .codec(codec)
                .validator(BeanValidator.create(codec))
                .maxBodyBytes(64 * 1024)
                .build();
        ControllerRoutes todos = new TodoControllerRoutes(new TodoController(new TodoStore()), json);
        Router.Builder router = Router.builder();
        todos.addTo(router);
        OpenApi.builder()
                .title("Todo-Backend")
                .version("1.0")
                .description("The Todo-Backend API (todobackend.com), served by Parry.")
                .controller(todos)
                .build()
                .addTo(router);
        CorsFilter cors = CorsFilter.builder()
                .allowAnyOrigin()
                .allowMethods(HttpMethod.GET, HttpMethod.POST, HttpMethod.PATCH, HttpMethod.DELETE)
                .allowHeaders("content-type")
                .exposeHeaders("location")
                .build();
        return router.build().with(cors);
    }

    /** Starts the API on this port (0 for any free port), with an empty store; returns once it listens. */
    public static Server start(int port) {
        return Server.builder().port(port).handler(handler()).build().start();
    }
}
