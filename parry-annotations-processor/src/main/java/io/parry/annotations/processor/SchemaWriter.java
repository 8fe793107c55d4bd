package io.parry.annotations.processor;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import javax.lang.model.element.AnnotationMirror;
import javax.lang.model.element.Element;
import javax.lang.model.element.ElementKind;
import javax.lang.model.element.RecordComponentElement;
import javax.lang.model.element.TypeElement;
import javax.lang.model.type.DeclaredType;
import javax.lang.model.type.TypeMirror;
import javax.lang.model.util.Elements;
import javax.lang.model.util.Types;

/**
 * JSON Schemas (2020-12, as OpenAPI 3.1 uses) for Java types: scalars, enums, collections, maps and
 * records, each record once in {@code components/schemas} with its Jakarta Bean Validation constraints
 * ({@code @NotNull}, {@code @NotBlank}, {@code @Size}, {@code @Min}, {@code @Pattern}...). Other
 * classes are described as any object: the processor does not guess at their properties.
 */
final class SchemaWriter {
    private static final String CONSTRAINTS = "jakarta.validation.constraints.";

    private final Types types;
    private final TypeMirror collection;
    private final TypeMirror map;
    private final Map<String, Object> components;

    SchemaWriter(Types types, Elements elements, Map<String, Object> components) {
        this.types = types;
        this.collection =
                types.erasure(elements.getTypeElement("java.util.Collection").asType());
        this.map = types.erasure(elements.getTypeElement("java.util.Map").asType());
        this.components = components;
    }

    Map<String, Object> schema(TypeMirror type) {
        Map<String, Object> schema = new LinkedHashMap<>();
        switch (type.getKind()) {
            case INT, SHORT, BYTE -> integer(schema, "int32");
            case LONG -> integer(schema, "int64");
            case DOUBLE, FLOAT -> schema.put("type", "number");
            case BOOLEAN -> schema.put("type", "boolean");
            case CHAR -> schema.put("type", "string");
            case DECLARED -> declared((DeclaredType) type, schema);
            case ARRAY -> {
                schema.put("type", "array");
                schema.put("items", schema(((javax.lang.model.type.ArrayType) type).getComponentType()));
            }
            default -> {}
        }
        return schema;
    }

    private void declared(DeclaredType type, Map<String, Object> schema) {
        TypeElement element = (TypeElement) type.asElement();
        String name = element.getQualifiedName().toString();
        List<? extends TypeMirror> arguments = type.getTypeArguments();
        switch (name) {
            case "java.lang.String", "java.lang.CharSequence", "java.lang.Character" -> schema.put("type", "string");
            case "java.lang.Integer", "java.lang.Short", "java.lang.Byte" -> integer(schema, "int32");
            case "java.lang.Long", "java.math.BigInteger" -> integer(schema, "int64");
            case "java.lang.Double", "java.lang.Float", "java.math.BigDecimal" -> schema.put("type", "number");
            case "java.lang.Boolean" -> schema.put("type", "boolean");
            case "java.util.UUID" -> string(schema, "uuid");
            case "java.time.Instant", "java.time.OffsetDateTime", "java.time.ZonedDateTime" -> string(
                    schema, "date-time");
            case "java.time.LocalDate" -> string(schema, "date");
            case "java.time.Duration" -> string(schema, "duration");
            case "java.net.URI" -> string(schema, "uri");
            case "java.util.Optional", "io.parry.json.JsonResult" -> schema.putAll(schema(arguments.get(0)));
            case "java.lang.Object" -> {}
            default -> composite(type, element, schema);
        }
    }

    private void composite(DeclaredType type, TypeElement element, Map<String, Object> schema) {
        List<? extends TypeMirror> arguments = type.getTypeArguments();
        if (element.getKind() == ElementKind.ENUM) {
            List<String> constants = new ArrayList<>();
            for (Element member : element.getEnclosedElements()) {
                if (member.getKind() == ElementKind.ENUM_CONSTANT) {
                    constants.add(member.getSimpleName().toString());
                }
            }
            schema.put("type", "string");
            schema.put("enum", constants);
        } else if (types.isAssignable(types.erasure(type), collection)) {
            schema.put("type", "array");
            schema.put("items", arguments.isEmpty() ? Map.of() : schema(arguments.get(0)));
        } else if (types.isAssignable(types.erasure(type), map)) {
            schema.put("type", "object");
            schema.put("additionalProperties", arguments.size() < 2 ? Map.of() : schema(arguments.get(1)));
        } else if (element.getKind() == ElementKind.RECORD) {
            String component = element.getSimpleName().toString();
            if (!components.containsKey(component)) {
                components.put(component, Map.of());
                components.put(component, record(element));
            }
            schema.put("$ref", "#/components/schemas/" + component);
        } else {
            schema.put("type", "object");
        }
    }

    private Map<String, Object> record(TypeElement record) {
        Map<String, Object> schema = new LinkedHashMap<>();
        Map<String, Object> properties = new LinkedHashMap<>();
        List<String> required = new ArrayList<>();
        schema.put("type", "object");
        for (RecordComponentElement component : record.getRecordComponents()) {
            String name = component.getSimpleName().toString();
            Map<String, Object> property = new LinkedHashMap<>(schema(component.asType()));
            if (constrain(property, constraints(record, component))) {
                required.add(name);
            }
            properties.put(name, property);
        }
        schema.put("properties", properties);
        if (!required.isEmpty()) {
            schema.put("required", required);
        }
        return schema;
    }

    /** Adds the constraints to the property; true when they make it required. */
    private static boolean constrain(Map<String, Object> property, List<AnnotationMirror> constraints) {
        boolean required = false;
        boolean array = "array".equals(property.get("type"));
        for (AnnotationMirror constraint : constraints) {
            switch (Mirrors.nameOf(constraint).substring(CONSTRAINTS.length())) {
                case "NotNull" -> required = true;
                case "NotBlank", "NotEmpty" -> {
                    required = true;
                    property.put(array ? "minItems" : "minLength", 1);
                }
                case "Size" -> {
                    Object min = Mirrors.value(constraint, "min");
                    Object max = Mirrors.value(constraint, "max");
                    if (min != null) {
                        property.put(array ? "minItems" : "minLength", min);
                    }
                    if (max != null) {
                        property.put(array ? "maxItems" : "maxLength", max);
                    }
                }
                case "Min", "DecimalMin" -> property.put("minimum", number(Mirrors.value(constraint, "value")));
                case "Max", "DecimalMax" -> property.put("maximum", number(Mirrors.value(constraint, "value")));
                case "Positive" -> property.put("exclusiveMinimum", 0);
                case "PositiveOrZero" -> property.put("minimum", 0);
                case "Negative" -> property.put("exclusiveMaximum", 0);
                case "NegativeOrZero" -> property.put("maximum", 0);
                case "Pattern" -> property.put("pattern", Mirrors.string(constraint, "regexp"));
                case "Email" -> property.put("format", "email");
                default -> {}
            }
        }
        return required;
    }

    private static Object number(Object value) {
        return value instanceof String text ? new java.math.BigDecimal(text) : value;
    }

    /**
     * The component's constraints wherever Java put them: on the component, its accessor, its field or
     * its type (Bean Validation's annotations are {@code TYPE_USE} too), each kind once.
     */
    private static List<AnnotationMirror> constraints(TypeElement record, RecordComponentElement component) {
        List<AnnotationMirror> all = new ArrayList<>(component.getAnnotationMirrors());
        all.addAll(component.asType().getAnnotationMirrors());
        if (component.getAccessor() != null) {
            all.addAll(component.getAccessor().getAnnotationMirrors());
        }
        for (Element member : record.getEnclosedElements()) {
            if (member.getKind() == ElementKind.FIELD && member.getSimpleName().equals(component.getSimpleName())) {
                all.addAll(member.getAnnotationMirrors());
                all.addAll(member.asType().getAnnotationMirrors());
            }
        }
        List<AnnotationMirror> constraints = new ArrayList<>();
        List<String> seen = new ArrayList<>();
        for (AnnotationMirror mirror : all) {
            String name = Mirrors.nameOf(mirror);
            if (name.startsWith(CONSTRAINTS) && !seen.contains(name)) {
                seen.add(name);
                constraints.add(mirror);
            }
        }
        return constraints;
    }

    private static void integer(Map<String, Object> schema, String format) {
        schema.put("type", "integer");
        schema.put("format", format);
    }

    private static void string(Map<String, Object> schema, String format) {
        schema.put("type", "string");
        schema.put("format", format);
    }
}
