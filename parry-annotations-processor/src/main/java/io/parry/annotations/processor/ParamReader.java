package io.parry.annotations.processor;

import static io.parry.annotations.processor.Names.PARRY;
import static io.parry.annotations.processor.Names.SPRING;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import javax.lang.model.element.AnnotationMirror;
import javax.lang.model.element.VariableElement;
import javax.lang.model.type.DeclaredType;
import javax.lang.model.type.TypeMirror;

/**
 * Reads how a route method's parameter is bound. Parry's and Spring's parameters are required unless
 * they have a default, are {@code Optional} or (Spring) say {@code required = false}; JAX-RS ones are
 * {@code null}, or the primitive's zero, when missing, as JAX-RS says.
 */
final class ParamReader {
    private static final Map<String, Source> BINDINGS = bindings();

    private final Reporter reporter;

    ParamReader(Reporter reporter) {
        this.reporter = reporter;
    }

    /** The parameter's binding; {@code null} after reporting a mistake. */
    ParamModel read(VariableElement parameter, boolean jaxRsRoute) {
        TypeMirror type = parameter.asType();
        String typeName = type.toString();
        if (typeName.equals("io.parry.server.RequestContext")) {
            return special(parameter, Source.CONTEXT);
        }
        if (typeName.equals("io.parry.http.HttpRequest")) {
            return special(parameter, Source.REQUEST);
        }
        if (Mirrors.find(parameter, PARRY + "Body") != null
                || Mirrors.find(parameter, SPRING + "RequestBody") != null) {
            return special(parameter, Source.BODY);
        }
        AnnotationMirror binding = Mirrors.findAny(parameter, List.copyOf(BINDINGS.keySet()));
        if (binding == null) {
            if (jaxRsRoute && parameter.getAnnotationMirrors().isEmpty()) {
                return special(parameter, Source.BODY);
            }
            reporter.error(
                    parameter,
                    "no binding (expected: @PathParam, @QueryParam, @HeaderParam, @CookieParam or @Body, their JAX-RS"
                            + " or Spring equivalents, or a RequestContext or HttpRequest)");
            return null;
        }
        return bound(parameter, BINDINGS.get(Mirrors.nameOf(binding)), binding);
    }

    private ParamModel bound(VariableElement parameter, Source source, AnnotationMirror binding) {
        String annotation = Mirrors.nameOf(binding);
        String name = Mirrors.string(binding, "value", "name");
        if (name.isEmpty()) {
            name = parameter.getSimpleName().toString();
        }
        TypeMirror valueType = parameter.asType();
        boolean optional = isOptional(valueType);
        if (optional) {
            valueType = ((DeclaredType) valueType).getTypeArguments().get(0);
        }
        String defaultValue = defaultValue(parameter, binding);
        boolean required = source == Source.PATH
                || (defaultValue == null
                        && !optional
                        && (annotation.startsWith(PARRY)
                                || (annotation.startsWith(SPRING) && Mirrors.bool(binding, "required", true))));
        if (source == Source.PATH && (optional || defaultValue != null)) {
            reporter.error(parameter, "a path parameter is always present (expected: no default and no Optional)");
            return null;
        }
        Conversion conversion = Conversion.to(valueType, source, name);
        if (conversion == null) {
            reporter.error(
                    parameter,
                    "unsupported type " + parameter.asType() + " (expected: " + Conversion.SUPPORTED
                            + (source == Source.PATH ? "" : ", or an Optional of one") + ")");
            return null;
        }
        if (!required
                && defaultValue == null
                && !optional
                && valueType.getKind().isPrimitive()) {
            defaultValue = valueType.getKind().name().equals("BOOLEAN") ? "false" : "0";
        }
        if (defaultValue != null) {
            String expected = conversion.checkDefault(valueType, defaultValue);
            if (expected != null) {
                reporter.error(parameter, "default value \"" + defaultValue + "\" (expected: " + expected + ")");
                return null;
            }
        }
        return new ParamModel(parameter, source, name, valueType, conversion, required, optional, defaultValue);
    }

    private static String defaultValue(VariableElement parameter, AnnotationMirror binding) {
        AnnotationMirror parry = Mirrors.find(parameter, PARRY + "Default");
        if (parry != null) {
            return Mirrors.string(parry, "value");
        }
        AnnotationMirror jaxRs = Mirrors.findAny(parameter, Names.jaxRs("DefaultValue"));
        if (jaxRs != null) {
            return Mirrors.string(jaxRs, "value");
        }
        Object spring = Mirrors.nameOf(binding).startsWith(SPRING) ? Mirrors.value(binding, "defaultValue") : null;
        return spring == null || spring.equals(Names.SPRING_NO_DEFAULT) ? null : spring.toString();
    }

    static boolean isOptional(TypeMirror type) {
        return type instanceof DeclaredType declared
                && declared.asElement().toString().equals("java.util.Optional")
                && declared.getTypeArguments().size() == 1;
    }

    private static ParamModel special(VariableElement parameter, Source source) {
        return new ParamModel(
                parameter, source, parameter.getSimpleName().toString(), parameter.asType(), null, true, false, null);
    }

    private static Map<String, Source> bindings() {
        Map<String, Source> bindings = new LinkedHashMap<>();
        for (String prefix : List.of(PARRY, Names.JAX_RS.get(0), Names.JAX_RS.get(1))) {
            bindings.put(prefix + "PathParam", Source.PATH);
            bindings.put(prefix + "QueryParam", Source.QUERY);
            bindings.put(prefix + "HeaderParam", Source.HEADER);
            bindings.put(prefix + "CookieParam", Source.COOKIE);
        }
        bindings.put(SPRING + "PathVariable", Source.PATH);
        bindings.put(SPRING + "RequestParam", Source.QUERY);
        bindings.put(SPRING + "RequestHeader", Source.HEADER);
        bindings.put(SPRING + "CookieValue", Source.COOKIE);
        return bindings;
    }
}
