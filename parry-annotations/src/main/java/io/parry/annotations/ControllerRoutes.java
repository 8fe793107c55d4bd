package io.parry.annotations;

import io.parry.server.Filter;
import io.parry.server.routing.Router;
import java.util.List;
import java.util.Map;

/**
 * The routes of one controller, as the processor generated them: {@code TodoControllerRoutes} for
 * {@code TodoController}. Generated classes are plain Java beside the controller, to read and step
 * through.
 *
 * <pre>{@code
 * JsonEndpoints json = JsonEndpoints.builder().validator(BeanValidator.create(codec)).build();
 * Router.Builder router = Router.builder();
 * new TodoControllerRoutes(new TodoController(store), json).addTo(router);
 * new AdminControllerRoutes(new AdminController(), json).with(jwt).addTo(router);   // every route behind jwt
 * }</pre>
 */
public interface ControllerRoutes {
    /** Adds the controller's routes, with their filters, error handlers and scheduling, to the router. */
    void addTo(Router.Builder router);

    /**
     * The OpenAPI 3.1 description of these routes, made at compile time: a JSON object with
     * {@code paths} and {@code components}, for an OpenAPI document to merge. An operation whose
     * route names filters ({@code @Filters(named = ...)}) lists their names in {@code
     * x-parry-named-filters}, for the document to resolve with {@link #namedFilters()}.
     */
    String openApi();

    /**
     * These routes with the filters around each of them, outside the controller's own {@code @Filters},
     * the first outermost: an authentication filter for the whole controller, say, which an OpenAPI
     * document built from these routes then describes. This instance is unchanged.
     */
    ControllerRoutes with(Filter... filters);

    /** The filters given with {@link #with}, outermost first; empty for none. */
    List<Filter> filters();

    /**
     * These routes with the filters their {@code @Filters(named = ...)} name, by name: filters made
     * with settings, which a no-argument constructor cannot make. An OpenAPI document built from these
     * routes describes the authentication of each operation that names one. This instance is
     * unchanged; names no route uses are ignored.
     */
    ControllerRoutes named(Map<String, ? extends Filter> filters);

    /** The filters given with {@link #named}, by name; empty for none. */
    Map<String, Filter> namedFilters();
}
