package io.parry.openapi;

import static java.util.Objects.requireNonNull;

import com.fasterxml.jackson.databind.node.ObjectNode;
import io.parry.annotations.ControllerRoutes;
import io.parry.http.HttpData;
import io.parry.http.HttpRequest;
import io.parry.http.HttpResponse;
import io.parry.http.MediaType;
import io.parry.json.JsonCodec;
import io.parry.openapi.internal.DocsPage;
import io.parry.openapi.internal.DocumentBuilder;
import io.parry.openapi.internal.OpenApiPaths;
import io.parry.openapi.internal.ServerUrl;
import io.parry.openapi.internal.YamlText;
import io.parry.server.Filter;
import io.parry.server.routing.Route;
import io.parry.server.routing.Router;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * An OpenAPI 3.1 document of a service, served at {@code GET /openapi.json} and {@code /openapi.yaml},
 * with a Swagger UI page at {@code /docs}. Annotated controllers bring the description the processor
 * wrote at compile time ({@link ControllerRoutes#openApi()}); functional routes join with a {@link
 * RouteDescription}. Immutable; the document is merged once, when built.
 *
 * <pre>{@code
 * ControllerRoutes todos = new TodoControllerRoutes(controller, json);
 * Router.Builder router = Router.builder();
 * todos.addTo(router);
 * OpenApi.builder().title("Todo-Backend").version("1.0").controller(todos).build().addTo(router);
 * }</pre>
 *
 * <p>The document's server URL is the one the client used: {@code X-Forwarded-Proto}, {@code
 * X-Forwarded-Host} and {@code X-Forwarded-Prefix} when a gateway set them, else {@code Host}, so
 * "try it out" calls go back through the gateway.
 *
 * <p>Routes behind parry-auth's filters say so (a controller's given with {@link ControllerRoutes#with}, a
 * functional route's named in its {@link RouteDescription#filters}): the document gets the security schemes (HTTP bearer JWT, API key, HTTP basic) and
 * each such operation its {@code security}, so Swagger UI's "Authorize" sends the credentials.
 * Given the router that serves the operations ({@link Builder#router}), the document reads what it puts
 * around each route instead, its own filters included.
 */
public final class OpenApi {
    private static final MediaType YAML = MediaType.parse("application/yaml");

    private final ObjectNode document;
    private final JsonCodec codec;
    private final DocsPage docs = new DocsPage();

    private OpenApi(ObjectNode document, JsonCodec codec) {
        this.document = document;
        this.codec = codec;
    }

    /** A builder with title {@code API} and version {@code 1.0}. */
    public static Builder builder() {
        return new Builder();
    }

    /**
     * Adds {@code GET /openapi.json}, {@code GET /openapi.yaml}, the page {@code GET /docs} and its
     * assets under {@code /docs/}. The assets are read from the Swagger UI webjar on a worker thread.
     */
    public void addTo(Router.Builder router) {
        requireNonNull(router, "router");
        router.get("/openapi.json", (ctx, request) -> HttpResponse.of(MediaType.JSON, json(request))
                .toStage());
        router.get("/openapi.yaml", (ctx, request) -> HttpResponse.of(YAML, HttpData.ofUtf8(yaml(request)))
                .toStage());
        router.get("/docs", (ctx, request) -> docs.page().toStage());
        router.get(
                "/docs/{file}",
                (ctx, request) -> docs.asset(ctx.pathParams().get("file")).toStage(),
                route -> route.blocking());
    }

    /** The document as JSON, with the server URL this request used. */
    public HttpData json(HttpRequest request) {
        return codec.write(withServer(request));
    }

    /** The document as YAML, with the server URL this request used. */
    public String yaml(HttpRequest request) {
        return YamlText.of(withServer(request));
    }

    /** Every operation of the document, as {@code GET /todos/{id}}, in document order. */
    public List<String> operations() {
        List<String> operations = new ArrayList<>();
        document.path("paths").properties().forEach(path -> path.getValue()
                .fieldNames()
                .forEachRemaining(method -> operations.add(method.toUpperCase(Locale.ROOT) + " " + path.getKey())));
        return operations;
    }

    private ObjectNode withServer(HttpRequest request) {
        ObjectNode served = codec.mapper().createObjectNode();
        served.set("openapi", document.get("openapi"));
        served.set("info", document.get("info"));
        served.set("jsonSchemaDialect", document.get("jsonSchemaDialect"));
        served.putArray("servers").addObject().put("url", ServerUrl.of(request));
        served.setAll(document);
        return served;
    }

    @Override
    public String toString() {
        return "OpenApi(" + operations().size() + " operations)";
    }

    /** Builds an {@link OpenApi}; not thread-safe. */
    public static final class Builder {
        private final List<Controller> controllers = new ArrayList<>();
        private final List<FunctionalRoute> routes = new ArrayList<>();
        private String title = "API";
        private String version = "1.0";
        private String description;
        private Router router;

        private Builder() {}

        /** The API's title; default {@code API}. */
        public Builder title(String title) {
            this.title = requireNonNull(title, "title");
            return this;
        }

        /** The API's version, not OpenAPI's; default {@code 1.0}. */
        public Builder version(String version) {
            this.version = requireNonNull(version, "version");
            return this;
        }

        /** A description of the API, CommonMark allowed; default none. */
        public Builder description(String description) {
            this.description = requireNonNull(description, "description");
            return this;
        }

        /**
         * Adds an annotated controller's operations and schemas. The filters it was given with {@link
         * ControllerRoutes#with} that are parry-auth's ({@code JwtFilter}: HTTP bearer, {@code
         * ApiKeyFilter}: an API key in a field or the query, {@code BasicAuthFilter}: HTTP basic) become
         * each operation's {@code security}, with its 401 (and 403) answers, and the document's security
         * schemes; so do those a method names ({@code @Filters(named = ...)}), given with {@link
         * ControllerRoutes#named}, on that method's operation.
         */
        public Builder controller(ControllerRoutes controller) {
            requireNonNull(controller, "controller");
            controllers.add(new Controller(controller.openApi(), controller.filters(), controller.namedFilters()));
            return this;
        }

        /**
         * The router that serves the operations, for what it puts around them: each operation one of its
         * routes answers (by method and path) requires what that route's filters authenticate ({@link
         * Route#filters()}: the router's own, its groups', the route's, a controller's), instead of what
         * was given with the controller or the description, so that the document and the router agree
         * also on filters applied to the whole router. Serve the document from a router outside it, or
         * the page and document are behind those filters too:
         *
         * <pre>{@code
         * Router api = Router.builder().filter(jwt)....build();
         * Router.Builder site = Router.builder();
         * OpenApi.builder().controller(todos).router(api).build().addTo(site);
         * site.mount("/", api);
         * }</pre>
         */
        public Builder router(Router router) {
            this.router = requireNonNull(router, "router");
            return this;
        }

        /**
         * Adds a functional route's operation.
         *
         * @param method such as {@code GET}
         * @param pattern the route's pattern, as given to the router ({@code /todos/{id}})
         */
        public Builder route(String method, String pattern, RouteDescription description) {
            routes.add(new FunctionalRoute(
                    requireNonNull(method, "method"),
                    requireNonNull(pattern, "pattern"),
                    requireNonNull(description, "description")));
            return this;
        }

        /**
         * The document.
         *
         * <p>An operation's id is its method's name; when two controllers have methods of one name,
         * both ids get the controller's name ({@code PetController_list}).
         *
         * @throws IllegalStateException if two operations have one method and path, or one id even so
         */
        public OpenApi build() {
            JsonCodec codec = JsonCodec.ofDefault();
            DocumentBuilder document =
                    new DocumentBuilder(codec.mapper(), title, version, description, servedFilters());
            for (Controller controller : controllers) {
                document.addController(controller.openApi(), controller.filters(), controller.named());
            }
            for (FunctionalRoute route : routes) {
                document.addRoute(route.method(), route.pattern(), route.description());
            }
            return new OpenApi(document.build(), codec);
        }

        /** The filters around each route of the router, by lower-case method ({@code *} for any) and OpenAPI path. */
        private Map<String, List<Filter>> servedFilters() {
            Map<String, List<Filter>> served = new HashMap<>();
            if (router != null) {
                for (Route route : router.routes()) {
                    served.putIfAbsent(
                            route.method().toLowerCase(Locale.ROOT) + " " + OpenApiPaths.of(route.pattern()),
                            route.filters());
                }
            }
            return served;
        }
    }

    private record Controller(String openApi, List<Filter> filters, Map<String, Filter> named) {}

    private record FunctionalRoute(String method, String pattern, RouteDescription description) {}
}
