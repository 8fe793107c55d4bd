package io.parry.openapi.internal;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.parry.openapi.RouteDescription;
import io.parry.server.Filter;
import java.io.UncheckedIOException;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * Merges the controllers' compile-time descriptions and the functional routes' into one OpenAPI 3.1
 * document: paths by path and method, schemas by name (the first of a name wins, as records of one
 * name describe one thing across controllers of one service).
 */
public final class DocumentBuilder {
    private static final String PROBLEM = "Problem";
    private static final String NAMED_FILTERS = "x-parry-named-filters";

    private final ObjectMapper mapper;
    private final ObjectNode document;
    private final ObjectNode paths;
    private final ObjectNode schemas;
    private final ObjectNode securitySchemes;
    private final Map<String, List<Filter>> served;
    /** Operations by id; {@code null} for an id two controllers share, which neither keeps. */
    private final Map<String, ObjectNode> operationIds = new HashMap<>();

    /**
     * {@code served}: the filters a router puts around its routes, by lower-case method ({@code *} for
     * any) and OpenAPI path; an operation it has is secured by those instead of the ones described.
     */
    public DocumentBuilder(
            ObjectMapper mapper, String title, String version, String description, Map<String, List<Filter>> served) {
        this.mapper = mapper;
        this.served = served;
        this.document = mapper.createObjectNode();
        document.put("openapi", "3.1.0");
        ObjectNode info = document.putObject("info").put("title", title).put("version", version);
        if (description != null) {
            info.put("description", description);
        }
        document.put("jsonSchemaDialect", "https://spec.openapis.org/oas/3.1/dialect/base");
        this.paths = document.putObject("paths");
        this.schemas = document.putObject("components").putObject("schemas");
        this.securitySchemes = mapper.createObjectNode();
    }

    /**
     * Adds a controller's {@code paths} and {@code components/schemas}, as {@code ControllerRoutes.openApi()}
     * gives them, each operation requiring what the filters around the controller's routes authenticate,
     * and what those its method names (from {@code named}, by the names in {@code x-parry-named-filters}).
     */
    public void addController(String openApi, List<Filter> filters, Map<String, Filter> named) {
        JsonNode part;
        try {
            part = mapper.readTree(openApi);
        } catch (JsonProcessingException e) {
            throw new UncheckedIOException(e);
        }
        part.path("paths").properties().forEach(path -> path.getValue()
                .properties()
                .forEach(operation -> addOperation(
                        path.getKey(),
                        operation.getKey(),
                        secured(
                                path.getKey(),
                                operation.getKey(),
                                (ObjectNode) operation.getValue(),
                                filters,
                                named))));
        part.path("components").path("schemas").properties().forEach(schema -> {
            if (!schemas.has(schema.getKey())) {
                schemas.set(schema.getKey(), schema.getValue());
            }
        });
    }

    /** Adds a functional route; its pattern is written as OpenAPI writes paths. */
    public void addRoute(String method, String pattern, RouteDescription description) {
        String path = OpenApiPaths.of(pattern);
        ObjectNode operation = mapper.createObjectNode();
        operation.put("summary", description.summary());
        ArrayNode parameters = mapper.createArrayNode();
        for (String name : OpenApiPaths.parameters(pattern)) {
            parameters
                    .addObject()
                    .put("name", name)
                    .put("in", "path")
                    .put("required", true)
                    .putObject("schema")
                    .put("type", "string");
        }
        if (!parameters.isEmpty()) {
            operation.set("parameters", parameters);
        }
        description.input().ifPresent(type -> operation
                .putObject("requestBody")
                .put("required", true)
                .putObject("content")
                .putObject("application/json")
                .set("schema", schemaOf(type)));
        ObjectNode responses = operation.putObject("responses");
        ObjectNode ok = responses.putObject("200").put("description", "OK");
        description.output().ifPresent(type -> ok.putObject("content")
                .putObject("application/json")
                .set("schema", schemaOf(type)));
        String lowerCase = method.toLowerCase(Locale.ROOT);
        addOperation(path, lowerCase, secured(path, lowerCase, operation, description.filters(), Map.of()));
    }

    public ObjectNode build() {
        ObjectNode built = document.deepCopy();
        if (!securitySchemes.isEmpty()) {
            ObjectNode components = (ObjectNode) built.get("components");
            components.set("securitySchemes", securitySchemes.deepCopy());
            if (!schemas.has(PROBLEM)) {
                ((ObjectNode) components.get("schemas"))
                        .putObject(PROBLEM)
                        .put("type", "object")
                        .put("description", "Problem details (RFC 9457)");
            }
        }
        return built;
    }

    /**
     * The operation secured by the filters its router puts around it, else by those described: the
     * controller's, then those its method names (outermost first).
     */
    private ObjectNode secured(
            String path, String method, ObjectNode operation, List<Filter> filters, Map<String, Filter> named) {
        JsonNode names = operation.remove(NAMED_FILTERS);
        List<Filter> live = served.getOrDefault(method + " " + path, served.get("* " + path));
        if (live != null) {
            return secured(operation, Authentication.of(live));
        }
        if (names == null) {
            return secured(operation, Authentication.of(filters));
        }
        List<Filter> around = new ArrayList<>(filters);
        names.forEach(name -> {
            Filter filter = named.get(name.asText());
            if (filter != null) {
                around.add(filter);
            }
        });
        return secured(operation, Authentication.of(around));
    }

    /** The operation with its {@code security} and the answers of a refused client (problem+json). */
    private ObjectNode secured(ObjectNode operation, Authentication authentication) {
        if (authentication.requirements().isEmpty()) {
            return operation;
        }
        authentication.schemes().forEach((name, scheme) -> {
            if (!securitySchemes.has(name)) {
                securitySchemes.set(name, mapper.valueToTree(scheme));
            }
        });
        operation.set("security", mapper.valueToTree(authentication.requirements()));
        ObjectNode responses =
                operation.has("responses") ? (ObjectNode) operation.get("responses") : operation.putObject("responses");
        problem(responses, "401", "Unauthorized: credentials are missing or not valid");
        if (authentication.forbids()) {
            problem(responses, "403", "Forbidden: the token does not grant what the route requires");
        }
        if (authentication.checksSecrets()) {
            problem(responses, "503", "Service Unavailable: too many credentials are being checked; try again later");
        }
        return operation;
    }

    private static void problem(ObjectNode responses, String status, String description) {
        responses
                .putObject(status)
                .put("description", description)
                .putObject("content")
                .putObject("application/problem+json")
                .putObject("schema")
                .put("$ref", "#/components/schemas/" + PROBLEM);
    }

    private void addOperation(String path, String method, ObjectNode operation) {
        ObjectNode item = paths.has(path) ? (ObjectNode) paths.get(path) : paths.putObject(path);
        if (item.has(method)) {
            throw new IllegalStateException("operation: " + method.toUpperCase(Locale.ROOT) + " " + path
                    + " (expected: one description per method and path)");
        }
        JsonNode id = operation.get("operationId");
        if (id != null) {
            identify(operation, id.asText());
        }
        item.set(method, operation);
    }

    /**
     * Keeps operation ids unique: a method name that two controllers use becomes, on both operations,
     * the controller's name and the method's ({@code PetController_list}), so each controller may have
     * its own {@code list}.
     */
    private void identify(ObjectNode operation, String id) {
        if (!operationIds.containsKey(id)) {
            operationIds.put(id, operation);
            return;
        }
        ObjectNode first = operationIds.put(id, null);
        if (first != null) {
            qualify(first, id);
        }
        qualify(operation, id);
    }

    private void qualify(ObjectNode operation, String id) {
        String qualified = operation.path("tags").path(0).asText("") + "_" + id;
        if (operationIds.containsKey(qualified)) {
            throw new IllegalStateException("operationId: " + qualified + " (expected: ids unique in the document;"
                    + " rename one of the methods)");
        }
        operationIds.put(qualified, operation);
        operation.put("operationId", qualified);
    }

    /** A reference to the schema of this simple name when a controller described one, else any object. */
    private ObjectNode schemaOf(Class<?> type) {
        ObjectNode schema = mapper.createObjectNode();
        if (schemas.has(type.getSimpleName())) {
            return schema.put("$ref", "#/components/schemas/" + type.getSimpleName());
        }
        return schema.put("type", "object").put("title", type.getSimpleName());
    }
}
