package io.parry.annotations.processor;

import static io.parry.annotations.processor.Names.PARRY;
import static io.parry.annotations.processor.Names.SPRING;

import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import javax.lang.model.element.AnnotationMirror;
import javax.lang.model.element.Element;
import javax.lang.model.element.ElementKind;
import javax.lang.model.element.ExecutableElement;
import javax.lang.model.element.Modifier;
import javax.lang.model.element.PackageElement;
import javax.lang.model.element.TypeElement;
import javax.lang.model.element.VariableElement;
import javax.lang.model.type.DeclaredType;
import javax.lang.model.type.TypeKind;
import javax.lang.model.type.TypeMirror;
import javax.lang.model.util.ElementFilter;
import javax.lang.model.util.Elements;
import javax.lang.model.util.Types;

/**
 * Reads a controller class into a {@link ControllerModel}: its prefix and class-wide settings, then
 * each method carrying a route annotation of any of the three dialects. Method settings replace the
 * class's ({@code consumes}, {@code produces}, scheduling) or wrap inside them (filters, error handlers).
 */
final class ControllerReader {
    private final Elements elements;
    private final Types types;
    private final Reporter reporter;
    private final ParamReader params;

    ControllerReader(Elements elements, Types types, Reporter reporter) {
        this.elements = elements;
        this.types = types;
        this.reporter = reporter;
        this.params = new ParamReader(reporter);
    }

    /** The controller; {@code null} after reporting a mistake. */
    ControllerModel read(TypeElement type) {
        int errorsBefore = reporter.errors();
        if (type.getModifiers().contains(Modifier.PRIVATE)
                || (type.getNestingKind().isNested() && !type.getModifiers().contains(Modifier.STATIC))) {
            reporter.error(
                    type,
                    "a controller cannot be private or an inner class (expected: a top-level or static nested class)");
            return null;
        }
        Settings defaults = Settings.of(type, null);
        String prefix = prefix(type);
        List<RouteModel> routes = new ArrayList<>();
        Set<String> handlerNames = new HashSet<>();
        for (Element member : type.getEnclosedElements()) {
            if (member.getKind() == ElementKind.METHOD) {
                RouteModel route = route((ExecutableElement) member, prefix, defaults, handlerNames);
                if (route != null) {
                    routes.add(route);
                }
            }
        }
        if (reporter.errors() > errorsBefore) {
            return null;
        }
        PackageElement pkg = elements.getPackageOf(type);
        String routesName = String.join("_", nestedNames(type)) + "Routes";
        return new ControllerModel(
                type, pkg.isUnnamed() ? "" : pkg.getQualifiedName().toString(), routesName, routes);
    }

    private static String prefix(TypeElement type) {
        AnnotationMirror parry = Mirrors.find(type, PARRY + "Controller");
        if (parry != null) {
            return Mirrors.string(parry, "value");
        }
        AnnotationMirror jaxRs = Mirrors.findAny(type, Names.JAX_RS_PATH);
        if (jaxRs != null) {
            return Mirrors.string(jaxRs, "value");
        }
        AnnotationMirror spring = Mirrors.find(type, SPRING + "RequestMapping");
        return spring == null ? "" : Mirrors.string(spring, "value", "path");
    }

    private RouteModel route(ExecutableElement method, String prefix, Settings defaults, Set<String> handlerNames) {
        List<RouteAnnotation> found = RouteAnnotation.on(method);
        if (found.isEmpty()) {
            return null;
        }
        if (found.size() > 1) {
            reporter.error(
                    method, "more than one route annotation (expected: one of @Get, @GET, @GetMapping... per method)");
            return null;
        }
        RouteAnnotation annotation = found.get(0);
        if (annotation.httpMethod() == null) {
            reporter.error(
                    method,
                    "@RequestMapping names no single method (expected: method = RequestMethod.GET, or @GetMapping)");
            return null;
        }
        if (method.getModifiers().contains(Modifier.PRIVATE)
                || method.getModifiers().contains(Modifier.STATIC)) {
            reporter.error(method, "a route method cannot be private or static");
            return null;
        }
        String pattern = PathPatterns.join(prefix, annotation.path());
        List<ParamModel> bound = new ArrayList<>();
        TypeMirror body = null;
        for (VariableElement parameter : method.getParameters()) {
            ParamModel param = params.read(parameter, annotation.jaxRs());
            if (param == null) {
                continue;
            }
            if (param.source() == Source.BODY) {
                if (body != null) {
                    reporter.error(parameter, "a second body (expected: one @Body parameter at most)");
                    continue;
                }
                body = bodyType(parameter);
            } else if (param.source() == Source.PATH
                    && !PathPatterns.parameters(pattern).contains(param.name())) {
                reporter.error(
                        parameter,
                        "missing path parameter '" + param.name() + "' (expected: one of "
                                + PathPatterns.parameters(pattern) + " in " + pattern + ")");
                continue;
            }
            bound.add(param);
        }
        Settings settings = Settings.of(method, defaults);
        checkInstantiable(method, settings.filters(), "io.parry.server.Filter");
        for (String name : settings.namedFilters()) {
            if (name.isBlank()) {
                reporter.error(method, "filter name '" + name + "' (expected: a name that is not blank)");
            }
        }
        checkInstantiable(method, settings.errorHandlers(), "io.parry.server.ErrorHandler");
        Returns returns = Returns.of(method.getReturnType());
        String handlerName = method.getSimpleName().toString();
        for (int i = 2; !handlerNames.add(handlerName); i++) {
            handlerName = method.getSimpleName().toString() + i;
        }
        return new RouteModel(
                method,
                handlerName,
                annotation.httpMethod(),
                pattern,
                bound,
                body,
                returns.kind(),
                returns.output(),
                settings.consumes(annotation),
                settings.produces(annotation),
                settings.blocking(),
                settings.executor(),
                settings.filters(),
                settings.namedFilters(),
                settings.errorHandlers(),
                summary(method));
    }

    /** Reports each class the generated code could not make with {@code new T()} as the kind it must be. */
    private void checkInstantiable(ExecutableElement method, List<TypeMirror> classes, String kind) {
        TypeElement kindType = elements.getTypeElement(kind);
        for (TypeMirror type : classes) {
            TypeElement element = (TypeElement) types.asElement(type);
            boolean ofKind = kindType == null || types.isAssignable(type, kindType.asType());
            boolean constructible = element.getKind() == ElementKind.CLASS
                    && !element.getModifiers().contains(Modifier.ABSTRACT)
                    && ElementFilter.constructorsIn(element.getEnclosedElements()).stream()
                            .anyMatch(constructor -> constructor.getParameters().isEmpty()
                                    && !constructor.getModifiers().contains(Modifier.PRIVATE));
            if (!ofKind || !constructible) {
                reporter.error(
                        method,
                        type + " (expected: a " + kind.substring(kind.lastIndexOf('.') + 1)
                                + " class with a constructor without parameters that is not private)");
            }
        }
    }

    private TypeMirror bodyType(VariableElement parameter) {
        TypeMirror type = parameter.asType();
        if (type.getKind() != TypeKind.DECLARED
                || !((DeclaredType) type).getTypeArguments().isEmpty()) {
            reporter.error(
                    parameter,
                    "unsupported body type " + type + " (expected: a class or record without type arguments)");
        }
        return type;
    }

    private String summary(ExecutableElement method) {
        AnnotationMirror summary = Mirrors.find(method, PARRY + "Summary");
        if (summary != null) {
            return Mirrors.string(summary, "value");
        }
        String doc = elements.getDocComment(method);
        return doc == null ? null : Javadoc.firstSentence(doc);
    }

    private static List<String> nestedNames(TypeElement type) {
        List<String> names = new ArrayList<>();
        Element element = type;
        while (element instanceof TypeElement) {
            names.add(0, element.getSimpleName().toString());
            element = element.getEnclosingElement();
        }
        return names;
    }
}
