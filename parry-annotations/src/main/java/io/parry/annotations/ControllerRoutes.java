package io.parry.annotations;

import io.parry.server.routing.Router;

/**
 * The routes of one controller, as the processor generated them: {@code TodoControllerRoutes} for
 * {@code TodoController}. Generated classes are plain Java beside the controller, to read and step
 * through.
 *
 * <pre>{@code
 * JsonEndpoints json = JsonEndpoints.builder().validator(BeanValidator.create(codec)).build();
 * Router.Builder router = Router.builder();
 * new TodoControllerRoutes(new TodoController(store), json).addTo(router);
 * }</pre>
 */
public interface ControllerRoutes {
    /** Adds the controller's routes, with their filters, error handlers and scheduling, to the router. */
    void addTo(Router.Builder router);

    /**
     * The OpenAPI 3.1 description of these routes, made at compile time: a JSON object with
     * {@code paths} and {@code components}, for an OpenAPI document to merge.
     */
    String openApi();
}
