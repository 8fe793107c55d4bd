package io.parry.annotations.processor;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import javax.lang.model.util.Elements;
import javax.lang.model.util.Types;

/**
 * Writes a controller's part of an OpenAPI 3.1 document: {@code paths} with an operation per route
 * (summary from {@code @Summary} or the Javadoc's first sentence, parameters, JSON request body,
 * response, and the problem+json answers the route can give) and {@code components/schemas} for the
 * records they use.
 */
final class OpenApiWriter {
    private static final Map<String, Object> PROBLEM_REF = JsonWriter.map("$ref", "#/components/schemas/Problem");

    private final Types types;
    private final Elements elements;

    OpenApiWriter(Types types, Elements elements) {
        this.types = types;
        this.elements = elements;
    }

    String write(ControllerModel controller) {
        Map<String, Object> schemas = new LinkedHashMap<>();
        SchemaWriter schemaWriter = new SchemaWriter(types, elements, schemas);
        Map<String, Object> paths = new LinkedHashMap<>();
        for (RouteModel route : controller.routes()) {
            @SuppressWarnings("unchecked")
            Map<String, Object> path = (Map<String, Object>)
                    paths.computeIfAbsent(PathPatterns.openApi(route.pattern()), key -> new LinkedHashMap<>());
            path.put(route.httpMethod().toLowerCase(Locale.ROOT), operation(controller, route, schemaWriter));
        }
        schemas.put("Problem", problem());
        Map<String, Object> document = new LinkedHashMap<>();
        document.put("paths", paths);
        document.put("components", JsonWriter.map("schemas", schemas));
        return JsonWriter.write(document);
    }

    private Map<String, Object> operation(ControllerModel controller, RouteModel route, SchemaWriter schemas) {
        Map<String, Object> operation = new LinkedHashMap<>();
        operation.put("operationId", route.method().getSimpleName().toString());
        operation.put("tags", List.of(controller.type().getSimpleName().toString()));
        if (route.summary() != null) {
            operation.put("summary", route.summary());
        }
        List<Object> parameters = new ArrayList<>();
        List<String> names = PathPatterns.parameters(route.pattern());
        List<String> regexes = PathPatterns.constraints(route.pattern());
        boolean badRequest = false;
        for (ParamModel param : route.params()) {
            if (param.source().in == null) {
                continue;
            }
            badRequest = true;
            Map<String, Object> schema = new LinkedHashMap<>(schemas.schema(param.valueType()));
            if (param.source() == Source.PATH && regexes.get(names.indexOf(param.name())) != null) {
                schema.put("pattern", "^" + regexes.get(names.indexOf(param.name())) + "$");
            }
            if (param.defaultValue() != null) {
                schema.put("default", typed(schema.get("type"), param.defaultValue()));
            }
            Map<String, Object> parameter = new LinkedHashMap<>();
            parameter.put("name", param.name());
            parameter.put("in", param.source().in);
            parameter.put("required", param.required());
            parameter.put("schema", schema);
            parameters.add(parameter);
        }
        if (!parameters.isEmpty()) {
            operation.put("parameters", parameters);
        }
        List<String> consumes = route.consumes().isEmpty() ? List.of("application/json") : route.consumes();
        if (route.body() != null) {
            Map<String, Object> content = new LinkedHashMap<>();
            for (String type : consumes) {
                content.put(type, JsonWriter.map("schema", schemas.schema(route.body())));
            }
            operation.put("requestBody", JsonWriter.map("required", true, "content", content));
        }
        operation.put("responses", responses(route, schemas, badRequest || route.body() != null));
        if (!route.namedFilters().isEmpty()) {
            // Only the filters given by these names at run time can say what they require of a client.
            operation.put("x-parry-named-filters", route.namedFilters());
        }
        return operation;
    }

    /** The default as the JSON value of the schema's type. */
    private static Object typed(Object type, String value) {
        if ("integer".equals(type)) {
            return Long.parseLong(value);
        }
        if ("number".equals(type)) {
            return Double.parseDouble(value);
        }
        return "boolean".equals(type) ? (Object) Boolean.parseBoolean(value) : value;
    }

    private static Map<String, Object> responses(RouteModel route, SchemaWriter schemas, boolean badRequest) {
        Map<String, Object> responses = new LinkedHashMap<>();
        if (route.returns() == ReturnKind.VOID) {
            responses.put("204", JsonWriter.map("description", "No Content"));
        } else if (route.output() == null) {
            responses.put("default", JsonWriter.map("description", "The response the method builds"));
        } else {
            List<String> produces = route.produces().isEmpty() ? List.of("application/json") : route.produces();
            Map<String, Object> content = new LinkedHashMap<>();
            for (String type : produces) {
                content.put(type, JsonWriter.map("schema", schemas.schema(route.output())));
            }
            responses.put("200", JsonWriter.map("description", "OK", "content", content));
        }
        if (badRequest) {
            responses.put("400", problem("Bad Request: a parameter or the content is invalid"));
        }
        if (route.returns() == ReturnKind.OPTIONAL || route.returns() == ReturnKind.STAGE_OF_OPTIONAL) {
            responses.put("404", problem("Not Found"));
        }
        if (route.body() != null) {
            responses.put("413", problem("Content Too Large"));
            responses.put("415", problem("Unsupported Media Type"));
        }
        responses.put("500", problem("Internal Server Error"));
        return responses;
    }

    private static Map<String, Object> problem(String description) {
        return JsonWriter.map(
                "description",
                description,
                "content",
                JsonWriter.map("application/problem+json", JsonWriter.map("schema", PROBLEM_REF)));
    }

    /** RFC 9457's problem details, with Parry's request id and field errors. */
    private static Map<String, Object> problem() {
        Map<String, Object> properties = new LinkedHashMap<>();
        properties.put("type", JsonWriter.map("type", "string", "format", "uri-reference"));
        properties.put("title", JsonWriter.map("type", "string"));
        properties.put("status", JsonWriter.map("type", "integer", "format", "int32"));
        properties.put("detail", JsonWriter.map("type", "string"));
        properties.put("instance", JsonWriter.map("type", "string", "format", "uri-reference"));
        properties.put("requestId", JsonWriter.map("type", "string"));
        properties.put("errors", JsonWriter.map("type", "array", "items", JsonWriter.map("type", "object")));
        Map<String, Object> schema = new LinkedHashMap<>();
        schema.put("type", "object");
        schema.put("properties", properties);
        return schema;
    }
}
