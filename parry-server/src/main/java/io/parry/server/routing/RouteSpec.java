package io.parry.server.routing;

import static java.util.Objects.requireNonNull;

import io.parry.http.AddressBlocks;
import io.parry.http.MediaType;
import io.parry.server.ErrorHandler;
import io.parry.server.Filter;
import io.parry.server.routing.internal.Condition;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;
import java.util.function.Predicate;

/**
 * What one route requires of a request beyond its method and path, how its handler runs, and what
 * the request log calls it; set in the lambda given with the route. Not thread-safe; used only while
 * the router is being built.
 *
 * <pre>{@code
 * Router.builder()
 *         .post("/todos", createTodo, route -> route
 *                 .consumes(MediaType.JSON)
 *                 .produces(MediaType.JSON)
 *                 .header("x-api-version", "2")
 *                 .blocking())
 *         .all("/api/**", apiProxy, route -> route.host("api.example.com").name("api"))
 *         .build();
 * }</pre>
 *
 * <p>A request that fails a condition is not for this route: the router tries the next one, and
 * when none fits answers 415 (content type), 406 ({@code Accept}) or 404 (host, header, query, cookie
 * or client address). Query and cookie conditions allocate nothing for a request that fails them,
 * unless its query has escapes to decode; a client address condition copies the address's bytes,
 * and reads {@code X-Forwarded-For} only for a request from a trusted proxy.
 */
public final class RouteSpec {
    private final List<MediaType> consumes = new ArrayList<>();
    private final List<MediaType> produces = new ArrayList<>();
    private final Set<Condition> conditions = new LinkedHashSet<>();
    private final List<Filter> filters = new ArrayList<>();
    private ErrorHandler errorHandler;
    private String name;
    private String executor;
    private boolean blocking;

    RouteSpec() {}

    /**
     * Takes only requests whose {@code Content-Type} is one of these (wildcards such as {@code text/*}
     * allowed; parameters given here must match); others get 415 if no other route takes them.
     */
    public RouteSpec consumes(MediaType... types) {
        for (MediaType type : types) {
            consumes.add(requireNonNull(type, "type"));
        }
        return this;
    }

    /**
     * Declares the types the handler produces; a request whose {@code Accept} allows none of them
     * (q-values considered) gets 406 if no other route takes it. Among routes that differ only in
     * this, the one producing the type the client prefers most is chosen.
     */
    public RouteSpec produces(MediaType... types) {
        for (MediaType type : types) {
            produces.add(requireNonNull(type, "type"));
        }
        return this;
    }

    /**
     * Takes only requests for this host: the {@code Host} field (or an absolute-form target's
     * authority), compared case-insensitively; the request's port is ignored unless {@code host}
     * names one, as in {@code api.example.com:8443}.
     *
     * @throws IllegalArgumentException if the host is empty or holds a character a host cannot
     */
    public RouteSpec host(String host) {
        requireNonNull(host, "host");
        if (host.isEmpty() || host.chars().anyMatch(c -> c <= ' ' || c >= 0x7f || "/?#@".indexOf(c) >= 0)) {
            throw new IllegalArgumentException(
                    "host: " + host + " (expected: a host with an optional port, such as api.example.com)");
        }
        conditions.add(Condition.host(host));
        return this;
    }

    /** Takes only requests whose first field of this name equals the value (case-sensitive). */
    public RouteSpec header(String name, String value) {
        requireNonNull(value, "value");
        conditions.add(Condition.header(name, value, value::equals));
        return this;
    }

    /** Takes only requests whose first field of this name passes the test; a missing field fails. */
    public RouteSpec header(String name, Predicate<String> test) {
        conditions.add(Condition.header(name, null, test));
        return this;
    }

    /** Takes only requests whose first query parameter of this name equals the value once decoded. */
    public RouteSpec query(String name, String value) {
        requireNonNull(value, "value");
        conditions.add(Condition.query(name, value, value::equals));
        return this;
    }

    /** Takes only requests whose first query parameter of this name passes the test; a missing one fails. */
    public RouteSpec query(String name, Predicate<String> test) {
        conditions.add(Condition.query(name, null, test));
        return this;
    }

    /** Takes only requests with a query parameter of this name, whatever its value ({@code ?beta} included). */
    public RouteSpec queryPresent(String name) {
        conditions.add(Condition.queryPresent(name));
        return this;
    }

    /**
     * Takes only requests whose first cookie of this name (in the {@code Cookie} fields, RFC 6265,
     * section 5.4) has exactly this value; surrounding double quotes are not part of the value.
     */
    public RouteSpec cookie(String name, String value) {
        conditions.add(Condition.cookie(name, value));
        return this;
    }

    /**
     * Takes only requests from a client address in one of the blocks: the TCP peer, or, when the
     * peer is one of {@code trustedProxies}, the client {@link io.parry.http.ClientAddress#behind}
     * finds in {@code X-Forwarded-For}. A client whose address is unknown is not taken.
     *
     * <pre>{@code
     * route.clientAddress(AddressBlocks.parse("clients", List.of("10.0.0.0/8")), AddressBlocks.none())
     * }</pre>
     */
    public RouteSpec clientAddress(AddressBlocks clients, AddressBlocks trustedProxies) {
        if (requireNonNull(clients, "clients").isEmpty()) {
            throw new IllegalArgumentException("clients: [] (expected: at least one address or block)");
        }
        conditions.add(Condition.clientAddress(clients, trustedProxies));
        return this;
    }

    /**
     * Names the route: the request log (and so metrics and the access log) and {@link Route#name()}
     * call it this instead of its pattern, under whatever mount it is.
     */
    public RouteSpec name(String name) {
        requireNonNull(name, "name");
        if (name.isEmpty()) {
            throw new IllegalArgumentException("name: \"\" (expected: a name that is not empty)");
        }
        this.name = name;
        return this;
    }

    /** Adds a filter around this route's handler only; the first added sees the request first. */
    public RouteSpec filter(Filter filter) {
        filters.add(requireNonNull(filter, "filter"));
        return this;
    }

    /**
     * Adds an error handler for this route's failures (its handler's and its filters'), asked before
     * the group's, the router's and the server's.
     */
    public RouteSpec errorHandler(ErrorHandler errorHandler) {
        requireNonNull(errorHandler, "errorHandler");
        this.errorHandler = this.errorHandler == null ? errorHandler : this.errorHandler.orElse(errorHandler);
        return this;
    }

    /**
     * Runs the handler on the server's worker executor (virtual threads on JDK 21 and later), where it
     * may block; the returned stage is awaited there. Filters still run on the event loop.
     */
    public RouteSpec blocking() {
        this.blocking = true;
        this.executor = null;
        return this;
    }

    /**
     * Runs the handler on the executor registered under this name with
     * {@link Router.Builder#executor(String, java.util.concurrent.Executor)}, with the request's
     * context current; the returned stage is awaited there. An unknown name fails the router's build.
     */
    public RouteSpec executor(String name) {
        this.executor = requireNonNull(name, "name");
        this.blocking = false;
        return this;
    }

    List<MediaType> consumes() {
        return consumes;
    }

    List<MediaType> produces() {
        return produces;
    }

    Set<Condition> conditions() {
        return conditions;
    }

    List<Filter> filters() {
        return filters;
    }

    ErrorHandler errorHandler() {
        return errorHandler;
    }

    String name() {
        return name;
    }

    String executor() {
        return executor;
    }

    boolean isBlocking() {
        return blocking;
    }

    String scheduling() {
        return executor != null ? "executor:" + executor : blocking ? "worker" : "event-loop";
    }
}
