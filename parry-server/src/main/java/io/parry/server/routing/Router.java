package io.parry.server.routing;

import static java.util.Objects.requireNonNull;

import io.parry.http.HttpMethod;
import io.parry.http.HttpRequest;
import io.parry.http.HttpResponse;
import io.parry.server.ErrorHandler;
import io.parry.server.Filter;
import io.parry.server.Handler;
import io.parry.server.RequestContext;
import io.parry.server.routing.internal.PathPattern;
import io.parry.server.routing.internal.RouteDispatcher;
import io.parry.server.routing.internal.RouteEntry;
import io.parry.server.routing.internal.RouteLint;
import io.parry.server.routing.internal.RouteTable;
import io.parry.server.routing.internal.Scheduled;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.Executor;
import java.util.function.Consumer;

/**
 * A handler that sends each request to the route its method, path and conditions select. Immutable:
 * built once, compiled into a segment trie, and safe to share between event loops.
 *
 * <pre>{@code
 * Router api = Router.builder()
 *         .get("/todos", listTodos)
 *         .post("/todos", createTodo, route -> route.consumes(MediaType.JSON).produces(MediaType.JSON))
 *         .get("/todos/{id:\\d+}", getTodo)
 *         .get("/files/{*path}", serveFile, route -> route.blocking())
 *         .all("/legacy/**", legacyProxy, route -> route.host("old.example.com"))
 *         .group("/admin", admin -> admin.filter(auth).get("/stats", stats))
 *         .mount("/v2", otherRouter)
 *         .errorHandler(myErrors)
 *         .build();
 * Server.builder().handler(api).port(8080).build().start();
 * }</pre>
 *
 * <h2>Patterns</h2>
 * A pattern is a list of segments after {@code /}: a literal ({@code todos}, written as it arrives,
 * percent-escapes included; {@code %7E} is {@code ~}, as request paths are normalised), a parameter
 * {@code {id}} that takes one non-empty segment, a constrained parameter {@code {id:\d+}} whose
 * regular expression must match that segment's decoded value in full, and, last only, either a
 * catch-all {@code {*path}} that takes the rest after the slash, possibly empty ({@code /files/{*path}}
 * matches {@code /files/} and {@code /files/a/b}, not {@code /files}), or {@code /**}, which makes the
 * pattern a prefix: {@code /api/**} takes {@code /api}, {@code /api/} and {@code /api/x}, not
 * {@code /apix}, and {@code /**} takes every path. A trailing slash is otherwise significant.
 * Parameters are percent-decoded per segment (a catch-all keeps {@code %2F} encoded so it never gains
 * segments) and read with {@link RequestContext#pathParams()} or {@link RequestParams}.
 *
 * <h2>Precedence</h2>
 * The most specific route wins, compared segment by segment from the left: at each segment a literal
 * beats a constrained parameter (constrained ones in declaration order), which beats a parameter,
 * which beats a catch-all, which beats a prefix or mount that ends before the segment. So an exact path
 * beats a template, a template beats a prefix ending where its parameters start, and the longer of two
 * prefixes wins. If the most specific place has no route that takes the request (its method, host,
 * headers, query, content type or {@code Accept} do not fit), the next place in that order is tried,
 * down to the shortest prefix. At one place, the routes of the request's method and those of every
 * method ({@link Builder#all}) are tried in declaration order, conditions first, then {@code consumes},
 * then {@code produces}; among those that accept, the one producing the type the client's {@code
 * Accept} prefers wins, then the first declared. {@code HEAD} is served by the {@code GET} routes of a
 * place where no route names {@code HEAD} (the server sends no body). This is the order of a segment
 * trie such as Armeria's; unlike NGINX, a template does not beat every prefix as a regex location
 * does, and unlike Envoy, declaration order decides only among routes at the same place. The gateway
 * compiles its YAML routes onto this router, so both follow it.
 *
 * <h2>Answers of its own</h2>
 * Only when no route anywhere takes the request, all as {@code application/problem+json} with the
 * request id: 404 when no pattern matches (or no route's host, header, query, cookie or client address conditions hold), 405
 * with {@code Allow} when only the method is wrong, 415 and 406 for content types, and 204 with
 * {@code Allow} for an {@code OPTIONS} request no route takes. {@link #find} says which route a
 * request would get.
 *
 * <h2>Filters, error handlers, threads</h2>
 * Filters and error handlers are bound to routes when the router is built: a route's own, then its
 * groups' (innermost first), then the router's, which also see the router's own answers. Handlers run
 * on the event loop unless their route asks for the worker executor or a named executor
 * ({@link RouteSpec#blocking()}, {@link RouteSpec#executor(String)}). Lookup does no regular expression
 * work beyond segment constraints, allocates nothing for a route without parameters, and costs the same
 * with ten routes or ten thousand.
 */
public final class Router implements Handler {
    private final Handler entry;
    private final RouteTable table;
    private final List<Route> routes;

    private Router(Handler entry, RouteTable table, List<Route> routes) {
        this.entry = entry;
        this.table = table;
        this.routes = List.copyOf(routes);
    }

    /** A builder for a router. */
    public static Builder builder() {
        return new Builder(null, "");
    }

    @Override
    public CompletionStage<HttpResponse> handle(RequestContext ctx, HttpRequest request) throws Exception {
        return entry.handle(ctx, request);
    }

    /**
     * The route that would take this request, chosen as {@link #handle} chooses; empty when the
     * router would answer it itself (404, 405, 406, 415 or {@code OPTIONS}). A request for a mounted
     * handler finds the mount ({@code * /prefix/**}), whatever a router in it would choose.
     */
    public Optional<Route> find(HttpRequest request) {
        requireNonNull(request, "request");
        String path = request.path();
        RouteEntry found = path.startsWith("/") ? table.find(path, 0, request) : null;
        return found == null ? Optional.empty() : Optional.of(found.route());
    }

    /**
     * The route that would take this request from this connection, as {@link #find(HttpRequest)}
     * finds it; only this one can check a route's client address condition, which fails without a
     * connection.
     */
    public Optional<Route> find(RequestContext ctx, HttpRequest request) {
        requireNonNull(ctx, "ctx");
        requireNonNull(request, "request");
        String path = request.path();
        RouteEntry found = path.startsWith("/") ? table.find(path, 0, ctx, request) : null;
        return found == null ? Optional.empty() : Optional.of(found.route());
    }

    /** The route table in declaration order, mounted routers' routes included under their prefix. */
    public List<Route> routes() {
        return routes;
    }

    /** The route table, one route a line. */
    @Override
    public String toString() {
        StringBuilder text = new StringBuilder("Router(").append(routes.size()).append(" routes)");
        for (Route route : routes) {
            text.append("\n  ").append(route);
        }
        return text.toString();
    }

    /**
     * Builds a {@link Router}; also the builder a {@link #group} lambda receives. Not thread-safe.
     * Patterns are checked as routes are added ({@link IllegalArgumentException}); the route lint
     * runs in {@link #build()}.
     */
    public static final class Builder {
        private static final Consumer<RouteSpec> NO_SPEC = route -> {};

        private final Builder root;
        private final String prefix;
        private final List<Object> items = new ArrayList<>();
        private final List<Filter> filters = new ArrayList<>();
        private final Map<String, Executor> executors = new LinkedHashMap<>();
        private ErrorHandler errorHandler;
        private RouteLint lint = RouteLint.STRICT;

        private Builder(Builder root, String prefix) {
            this.root = root;
            this.prefix = prefix;
        }

        /**
         * Adds a route.
         *
         * @throws IllegalArgumentException if the pattern is malformed, with a message such as
         *     "pattern: /a/b-{id} (expected: a parameter to fill a whole segment, as in /a/{id})"
         */
        public Builder route(HttpMethod method, String pattern, Handler handler, Consumer<RouteSpec> spec) {
            return add(requireNonNull(method, "method"), pattern, handler, spec);
        }

        private Builder add(HttpMethod method, String pattern, Handler handler, Consumer<RouteSpec> spec) {
            requireNonNull(pattern, "pattern");
            requireNonNull(handler, "handler");
            RouteSpec route = new RouteSpec();
            requireNonNull(spec, "spec").accept(route);
            PathPattern.parse(pattern);
            items.add(new RouteDeclaration(method, pattern, handler, route));
            return this;
        }

        /**
         * Adds a route for every method, such as a proxy's; a route of the request's method declared
         * before it at the same place is tried first, one declared after it only if its conditions fail.
         *
         * @throws IllegalArgumentException if the pattern is malformed
         */
        public Builder all(String pattern, Handler handler, Consumer<RouteSpec> spec) {
            return add(null, pattern, handler, spec);
        }

        /** Adds a route for every method, with no conditions. */
        public Builder all(String pattern, Handler handler) {
            return add(null, pattern, handler, NO_SPEC);
        }

        /** Adds a route with no conditions that runs on the event loop. */
        public Builder route(HttpMethod method, String pattern, Handler handler) {
            return route(method, pattern, handler, NO_SPEC);
        }

        /** Adds a {@code GET} route, which also answers {@code HEAD}. */
        public Builder get(String pattern, Handler handler) {
            return route(HttpMethod.GET, pattern, handler, NO_SPEC);
        }

        /** Adds a {@code GET} route with conditions or scheduling. */
        public Builder get(String pattern, Handler handler, Consumer<RouteSpec> spec) {
            return route(HttpMethod.GET, pattern, handler, spec);
        }

        /** Adds a {@code POST} route. */
        public Builder post(String pattern, Handler handler) {
            return route(HttpMethod.POST, pattern, handler, NO_SPEC);
        }

        /** Adds a {@code POST} route with conditions or scheduling. */
        public Builder post(String pattern, Handler handler, Consumer<RouteSpec> spec) {
            return route(HttpMethod.POST, pattern, handler, spec);
        }

        /** Adds a {@code PUT} route. */
        public Builder put(String pattern, Handler handler) {
            return route(HttpMethod.PUT, pattern, handler, NO_SPEC);
        }

        /** Adds a {@code PUT} route with conditions or scheduling. */
        public Builder put(String pattern, Handler handler, Consumer<RouteSpec> spec) {
            return route(HttpMethod.PUT, pattern, handler, spec);
        }

        /** Adds a {@code PATCH} route. */
        public Builder patch(String pattern, Handler handler) {
            return route(HttpMethod.PATCH, pattern, handler, NO_SPEC);
        }

        /** Adds a {@code PATCH} route with conditions or scheduling. */
        public Builder patch(String pattern, Handler handler, Consumer<RouteSpec> spec) {
            return route(HttpMethod.PATCH, pattern, handler, spec);
        }

        /** Adds a {@code DELETE} route. */
        public Builder delete(String pattern, Handler handler) {
            return route(HttpMethod.DELETE, pattern, handler, NO_SPEC);
        }

        /** Adds a {@code DELETE} route with conditions or scheduling. */
        public Builder delete(String pattern, Handler handler, Consumer<RouteSpec> spec) {
            return route(HttpMethod.DELETE, pattern, handler, spec);
        }

        /**
         * Adds routes under a common prefix (such as {@code /admin} or {@code /tenants/{tenant}}) with
         * their own filters and error handler, which apply to the group's routes only. Inside the
         * group, the pattern {@code /} is the prefix itself.
         *
         * @throws IllegalArgumentException if the prefix is malformed or ends with a slash
         */
        public Builder group(String prefix, Consumer<Builder> group) {
            requireNonNull(prefix, "prefix");
            requireNonNull(group, "group");
            PathPattern.parsePrefix(prefix);
            Builder child = new Builder(root(), prefix);
            group.accept(child);
            items.add(child);
            return this;
        }

        /**
         * Sends every request at the prefix or below it, whatever its method, to the handler. A
         * {@link Router} mounted here (even wrapped in filters) matches the rest of the path, with
         * {@code /} for the prefix itself, and its routes join this router's route table; any other
         * handler sees the whole request. Literal and parameter routes here win over the mount.
         *
         * @throws IllegalArgumentException if the prefix is malformed or ends with a slash
         */
        public Builder mount(String prefix, Handler handler) {
            requireNonNull(prefix, "prefix");
            requireNonNull(handler, "handler");
            PathPattern.parsePrefix(prefix);
            items.add(new MountDeclaration(prefix, handler));
            return this;
        }

        /**
         * Adds a filter. On the router it wraps everything the router answers, its 404, 405 and
         * {@code OPTIONS} answers included; in a group, the group's routes. The first added sees the
         * request first.
         */
        public Builder filter(Filter filter) {
            filters.add(requireNonNull(filter, "filter"));
            return this;
        }

        /**
         * Adds an error handler for the failures of the router's routes (in a group, the group's),
         * asked after the routes' own and before whatever wraps the router, such as the server's.
         */
        public Builder errorHandler(ErrorHandler errorHandler) {
            requireNonNull(errorHandler, "errorHandler");
            this.errorHandler = this.errorHandler == null ? errorHandler : this.errorHandler.orElse(errorHandler);
            return this;
        }

        /**
         * Registers an executor that routes select by name with {@link RouteSpec#executor(String)}, for
         * work that must be kept apart from the server's workers. The application owns it and shuts it
         * down after the server stops. Called in a group, it registers with the whole router.
         */
        public Builder executor(String name, Executor executor) {
            requireNonNull(name, "name");
            requireNonNull(executor, "executor");
            if (root().executors.putIfAbsent(name, executor) != null) {
                throw new IllegalArgumentException("executor: " + name + " (expected: a name not registered yet)");
            }
            return this;
        }

        /**
         * Reports duplicate and shadowed routes to this consumer, one sentence naming both routes
         * each, instead of failing {@link #build()}; the hidden route stays in the table and is never
         * chosen. For route tables read from configuration, where the first declared route has always
         * won. Called in a group, it applies to the whole router.
         */
        public Builder onShadowedRoute(Consumer<String> findings) {
            root().lint = RouteLint.reportingTo(requireNonNull(findings, "findings"));
            return this;
        }

        /**
         * The router.
         *
         * @throws IllegalStateException if a route duplicates or is shadowed by another (the message
         *     names both; see {@link #onShadowedRoute}), a catch-all is where a mount is, a route names
         *     an executor that is not registered, or this is a group's builder
         * @throws IllegalArgumentException if a prefix and a pattern together repeat a parameter name
         */
        public Router build() {
            if (root != null) {
                throw new IllegalStateException("build: called on a group (expected: build the router builder)");
            }
            List<RouteEntry> entries = new ArrayList<>();
            List<Route> routes = new ArrayList<>();
            new RouteCollector(executors, entries, routes, filters).collect(this, "", List.of());
            RouteTable table = RouteTable.of(entries, lint);
            Handler entry = wrap(new RouteDispatcher(table), filters, errorHandler);
            return new Router(entry, table, routes);
        }

        private Builder root() {
            return root == null ? this : root;
        }

        String prefix() {
            return prefix;
        }

        List<Object> items() {
            return items;
        }

        List<Filter> filters() {
            return filters;
        }

        ErrorHandler errorHandler() {
            return errorHandler;
        }

        /** The handler inside these filters (the first outermost), inside the error handler. */
        static Handler wrap(Handler handler, List<Filter> filters, ErrorHandler errorHandler) {
            Handler wrapped = handler;
            for (int i = filters.size() - 1; i >= 0; i--) {
                wrapped = wrapped.with(filters.get(i));
            }
            return errorHandler == null ? wrapped : wrapped.with(errorHandler.asFilter());
        }

        static Handler schedule(Handler handler, RouteSpec spec, Map<String, Executor> executors) {
            if (spec.isBlocking()) {
                return Scheduled.onWorkers(handler);
            }
            if (spec.executor() == null) {
                return handler;
            }
            Executor executor = executors.get(spec.executor());
            if (executor == null) {
                throw new IllegalStateException("executor: " + spec.executor()
                        + " (expected: a name registered with Router.Builder.executor(name, executor), one of "
                        + executors.keySet() + ")");
            }
            return Scheduled.on(executor, handler);
        }
    }
}
