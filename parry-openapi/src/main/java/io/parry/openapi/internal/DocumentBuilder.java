package io.parry.openapi.internal;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.parry.openapi.RouteDescription;
import java.io.UncheckedIOException;
import java.util.HashSet;
import java.util.Locale;
import java.util.Set;

/**
 * Merges the controllers' compile-time descriptions and the functional routes' into one OpenAPI 3.1
 * document: paths by path and method, schemas by name (the first of a name wins, as records of one
 * name describe one thing across controllers of one service).
 */
public final class DocumentBuilder {
    private final ObjectMapper mapper;
    private final ObjectNode document;
    private final ObjectNode paths;
    private final ObjectNode schemas;
    private final Set<String> operationIds = new HashSet<>();

    public DocumentBuilder(ObjectMapper mapper, String title, String version, String description) {
        this.mapper = mapper;
        this.document = mapper.createObjectNode();
        document.put("openapi", "3.1.0");
        ObjectNode info = document.putObject("info").put("title", title).put("version", version);
        if (description != null) {
            info.put("description", description);
        }
        document.put("jsonSchemaDialect", "https://spec.openapis.org/oas/3.1/dialect/base");
        this.paths = document.putObject("paths");
        this.schemas = document.putObject("components").putObject("schemas");
    }

    /** Adds a controller's {@code paths} and {@code components/schemas}, as {@code ControllerRoutes.openApi()} gives them. */
    public void addController(String openApi) {
        JsonNode part;
        try {
            part = mapper.readTree(openApi);
        } catch (JsonProcessingException e) {
            throw new UncheckedIOException(e);
        }
        part.path("paths").properties().forEach(path -> path.getValue()
                .properties()
                .forEach(operation ->
                        addOperation(path.getKey(), operation.getKey(), (ObjectNode) operation.getValue())));
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
        addOperation(path, method.toLowerCase(Locale.ROOT), operation);
    }

    public ObjectNode build() {
        return document.deepCopy();
    }

    private void addOperation(String path, String method, ObjectNode operation) {
        ObjectNode item = paths.has(path) ? (ObjectNode) paths.get(path) : paths.putObject(path);
        if (item.has(method)) {
            throw new IllegalStateException("operation: " + method.toUpperCase(Locale.ROOT) + " " + path
                    + " (expected: one description per method and path)");
        }
        JsonNode id = operation.get("operationId");
        if (id != null && !operationIds.add(id.asText())) {
            throw new IllegalStateException("operationId: " + id.asText() + " (expected: ids unique in the document;"
                    + " rename one of the methods)");
        }
        item.set(method, operation);
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
