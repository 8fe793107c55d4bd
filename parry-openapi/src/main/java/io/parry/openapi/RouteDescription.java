package io.parry.openapi;

import static java.util.Objects.requireNonNull;

import io.parry.server.Filter;
import java.util.List;
import java.util.Optional;

/**
 * What the OpenAPI document says of a functional route, which the annotation processor cannot see
 * into: a summary, and the types of its JSON content and answer. A type names a schema by its simple
 * name: the one an annotated controller's records produced, or else any object. Immutable.
 *
 * <pre>{@code
 * OpenApi.builder().route("GET", "/stats", RouteDescription.of("Counts the todos.").output(Stats.class));
 * OpenApi.builder().route("GET", "/admin", RouteDescription.of("Shows the settings.").filters(jwt));
 * }</pre>
 */
public final class RouteDescription {
    private final String summary;
    private final Class<?> input;
    private final Class<?> output;
    private final List<Filter> filters;

    private RouteDescription(String summary, Class<?> input, Class<?> output, List<Filter> filters) {
        this.summary = summary;
        this.input = input;
        this.output = output;
        this.filters = filters;
    }

    /** A route with this summary, no content and no declared answer. */
    public static RouteDescription of(String summary) {
        return new RouteDescription(requireNonNull(summary, "summary"), null, null, List.of());
    }

    /** A copy whose request content is JSON of this type. */
    public RouteDescription input(Class<?> type) {
        return new RouteDescription(summary, requireNonNull(type, "type"), output, filters);
    }

    /** A copy whose answer is JSON of this type. */
    public RouteDescription output(Class<?> type) {
        return new RouteDescription(summary, input, requireNonNull(type, "type"), filters);
    }

    /**
     * A copy naming the filters around the route, outermost first, as given to {@link
     * io.parry.server.routing.RouteSpec#filter}: parry-auth's {@code JwtFilter}, {@code ApiKeyFilter} and
     * {@code BasicAuthFilter} become the operation's {@code security} and its 401 (and 403) answers;
     * others add nothing.
     */
    public RouteDescription filters(Filter... filters) {
        return new RouteDescription(summary, input, output, List.of(filters));
    }

    /** The summary. */
    public String summary() {
        return summary;
    }

    /** The request content's type, if the route reads one. */
    public Optional<Class<?>> input() {
        return Optional.ofNullable(input);
    }

    /** The answer's type, if declared. */
    public Optional<Class<?>> output() {
        return Optional.ofNullable(output);
    }

    /** The filters around the route, outermost first; empty for none. */
    public List<Filter> filters() {
        return filters;
    }

    @Override
    public String toString() {
        return "RouteDescription(" + summary + ")";
    }
}
