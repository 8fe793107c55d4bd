package io.parry.annotations.processor;

import static io.parry.annotations.processor.Names.PARRY;
import static io.parry.annotations.processor.Names.SPRING;

import java.util.ArrayList;
import java.util.List;
import javax.lang.model.element.AnnotationMirror;
import javax.lang.model.element.Element;
import javax.lang.model.type.TypeMirror;

/**
 * The settings a controller gives all its routes and a method its own: a method's media types and
 * scheduling replace the class's; its filters go inside the class's, and its error handlers are asked
 * before the class's.
 */
record Settings(
        List<String> consumes,
        List<String> produces,
        boolean blocking,
        String executor,
        List<TypeMirror> filters,
        List<String> namedFilters,
        List<TypeMirror> errorHandlers) {

    /** The element's settings over the enclosing ones ({@code null} for a class). */
    static Settings of(Element element, Settings outer) {
        List<String> consumes = mediaTypes(element, "Consumes", "consumes");
        List<String> produces = mediaTypes(element, "Produces", "produces");
        AnnotationMirror runOn = Mirrors.find(element, PARRY + "RunOn");
        boolean blocking = Mirrors.find(element, PARRY + "Blocking") != null;
        String executor = runOn == null ? null : Mirrors.string(runOn, "value");
        List<TypeMirror> filters = classes(element, "Filters");
        AnnotationMirror filtersMirror = Mirrors.find(element, PARRY + "Filters");
        List<String> named = filtersMirror == null ? List.of() : Mirrors.strings(filtersMirror, "named");
        List<TypeMirror> errorHandlers = classes(element, "ErrorHandlers");
        if (outer == null) {
            return new Settings(consumes, produces, blocking, executor, filters, named, errorHandlers);
        }
        List<TypeMirror> allFilters = new ArrayList<>(outer.filters);
        allFilters.addAll(filters);
        List<String> allNamed = new ArrayList<>(outer.namedFilters);
        allNamed.addAll(named);
        List<TypeMirror> allErrorHandlers = new ArrayList<>(errorHandlers);
        allErrorHandlers.addAll(outer.errorHandlers);
        boolean own = blocking || executor != null;
        return new Settings(
                consumes.isEmpty() ? outer.consumes : consumes,
                produces.isEmpty() ? outer.produces : produces,
                own ? blocking : outer.blocking,
                own ? executor : outer.executor,
                allFilters,
                allNamed,
                allErrorHandlers);
    }

    /** The route's content types to take: a Spring mapping's own, else these. */
    List<String> consumes(RouteAnnotation annotation) {
        return annotation.consumes().isEmpty() ? consumes : annotation.consumes();
    }

    /** The route's content types to produce: a Spring mapping's own, else these. */
    List<String> produces(RouteAnnotation annotation) {
        return annotation.produces().isEmpty() ? produces : annotation.produces();
    }

    /** Media types one a string each, also when JAX-RS lists several in one ({@code "a/b, c/d"}). */
    static List<String> split(List<String> values) {
        List<String> types = new ArrayList<>();
        for (String value : values) {
            for (String type : value.split(",")) {
                if (!type.isBlank()) {
                    types.add(type.trim());
                }
            }
        }
        return types;
    }

    private static List<String> mediaTypes(Element element, String simpleName, String springAttribute) {
        AnnotationMirror parry = Mirrors.find(element, PARRY + simpleName);
        if (parry != null) {
            return split(Mirrors.strings(parry, "value"));
        }
        AnnotationMirror jaxRs = Mirrors.findAny(element, Names.jaxRs(simpleName));
        if (jaxRs != null) {
            return split(Mirrors.strings(jaxRs, "value"));
        }
        AnnotationMirror spring = Mirrors.find(element, SPRING + "RequestMapping");
        return spring == null ? List.of() : split(Mirrors.strings(spring, springAttribute));
    }

    private static List<TypeMirror> classes(Element element, String simpleName) {
        AnnotationMirror mirror = Mirrors.find(element, PARRY + simpleName);
        return mirror == null ? List.of() : Mirrors.types(mirror, "value");
    }
}
