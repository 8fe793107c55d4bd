package io.parry.server.routing;

import io.parry.http.MediaType;
import io.parry.server.Filter;
import java.util.ArrayList;
import java.util.List;

/**
 * One line of a router's route table ({@link Router#routes()}): what a route matches and where its
 * handler runs. A description only; it cannot change the router.
 *
 * <pre>{@code
 * router.routes().forEach(route -> log.info("{}", route));
 * // GET /todos/{id} produces=application/json on event-loop
 * }</pre>
 */
public final class Route {
    private final String name;
    private final String method;
    private final String pattern;
    private final List<MediaType> consumes;
    private final List<MediaType> produces;
    private final List<String> conditions;
    private final String scheduling;
    private final List<Filter> filters;

    Route(
            String name,
            String method,
            String pattern,
            List<MediaType> consumes,
            List<MediaType> produces,
            List<String> conditions,
            String scheduling,
            List<Filter> filters) {
        this.name = name;
        this.method = method;
        this.pattern = pattern;
        this.consumes = List.copyOf(consumes);
        this.produces = List.copyOf(produces);
        this.conditions = List.copyOf(conditions);
        this.scheduling = scheduling;
        this.filters = List.copyOf(filters);
    }

    /**
     * The name given with {@link RouteSpec#name(String)}, which the request log and metrics use;
     * without one, the pattern.
     */
    public String name() {
        return name != null ? name : pattern;
    }

    /** The method, such as {@code GET}; {@code *} for a route or a mounted handler that takes every method. */
    public String method() {
        return method;
    }

    /**
     * The full path pattern, group and mount prefixes included, for example {@code /admin/users/{id}},
     * or {@code /api/**} for a prefix.
     */
    public String pattern() {
        return pattern;
    }

    /** The request content types the route takes; empty for any. */
    public List<MediaType> consumes() {
        return consumes;
    }

    /** The media types the route can produce, negotiated against {@code Accept}; empty for any. */
    public List<MediaType> produces() {
        return produces;
    }

    /** The host, header, query, cookie and client address conditions, for example {@code host api.example.com} or {@code header x-api-version=2}. */
    public List<String> conditions() {
        return conditions;
    }

    /**
     * Where the handler runs: {@code event-loop} (the default), {@code worker} (the server's worker
     * executor) or {@code executor:<name>} (an executor registered with the router).
     */
    public String scheduling() {
        return scheduling;
    }

    /**
     * The filters the router put around the route when it was built, outermost first: the router's own
     * ({@link Router.Builder#filter}), its groups', then the route's ({@link RouteSpec#filter}); for a
     * route of a mounted router, the mounting router's and groups' first. Filters that wrap the router
     * from outside ({@code router.with(filter)}, the server's) are not among them. An OpenAPI document
     * reads from them what the route asks of a client.
     */
    public List<Filter> filters() {
        return filters;
    }

    /** A copy under a mount's prefix, inside these filters (outermost first). */
    Route under(String prefix, List<Filter> outer) {
        if (prefix.isEmpty() && outer.isEmpty()) {
            return this;
        }
        List<Filter> around = new ArrayList<>(outer);
        around.addAll(filters);
        return new Route(
                name,
                method,
                prefix.isEmpty() ? pattern : prefix + (pattern.equals("/") ? "" : pattern),
                consumes,
                produces,
                conditions,
                scheduling,
                around);
    }

    /**
     * For example {@code POST /todos consumes=application/json produces=application/json on worker},
     * or {@code * /api/** name=api on event-loop}.
     */
    @Override
    public String toString() {
        StringBuilder text = new StringBuilder(method).append(' ').append(pattern);
        if (name != null) {
            text.append(" name=").append(name);
        }
        if (!consumes.isEmpty()) {
            text.append(" consumes=").append(join(consumes));
        }
        if (!produces.isEmpty()) {
            text.append(" produces=").append(join(produces));
        }
        for (String condition : conditions) {
            text.append(' ').append(condition);
        }
        return text.append(" on ").append(scheduling).toString();
    }

    private static String join(List<MediaType> types) {
        StringBuilder text = new StringBuilder();
        for (MediaType type : types) {
            text.append(text.length() == 0 ? "" : ",").append(type);
        }
        return text.toString();
    }
}
