package io.parry.annotations.processor;

import static io.parry.annotations.processor.Names.PARRY;
import static io.parry.annotations.processor.Names.SPRING;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import javax.lang.model.element.AnnotationMirror;
import javax.lang.model.element.ExecutableElement;

/**
 * A method's route annotation in any dialect: {@code @Get("/{id}")}, {@code @GET @Path("{id}")},
 * {@code @GetMapping("/{id}")} or {@code @RequestMapping(method = GET, path = "/{id}")}; {@code
 * httpMethod} is {@code null} when a {@code @RequestMapping} names no single method. Spring's mapping
 * carries its own {@code consumes} and {@code produces}.
 */
record RouteAnnotation(String httpMethod, String path, boolean jaxRs, List<String> consumes, List<String> produces) {

    static List<RouteAnnotation> on(ExecutableElement method) {
        List<RouteAnnotation> found = new ArrayList<>();
        for (String name : Names.HTTP_METHODS) {
            String camel = name.charAt(0) + name.substring(1).toLowerCase(Locale.ROOT);
            AnnotationMirror parry = Mirrors.find(method, PARRY + camel);
            if (parry != null) {
                found.add(new RouteAnnotation(name, Mirrors.string(parry, "value"), false, List.of(), List.of()));
            }
            if (Mirrors.findAny(method, Names.jaxRs(name)) != null) {
                AnnotationMirror path = Mirrors.findAny(method, Names.JAX_RS_PATH);
                String value = path == null ? "" : Mirrors.string(path, "value");
                found.add(new RouteAnnotation(name, value, true, List.of(), List.of()));
            }
            AnnotationMirror spring = Mirrors.find(method, SPRING + camel + "Mapping");
            if (spring != null) {
                found.add(spring(name, spring));
            }
        }
        AnnotationMirror mapping = Mirrors.find(method, SPRING + "RequestMapping");
        if (mapping != null) {
            List<String> methods = Mirrors.constants(mapping, "method");
            found.add(spring(
                    methods.size() == 1 && Names.HTTP_METHODS.contains(methods.get(0)) ? methods.get(0) : null,
                    mapping));
        }
        return found;
    }

    private static RouteAnnotation spring(String httpMethod, AnnotationMirror mapping) {
        return new RouteAnnotation(
                httpMethod,
                Mirrors.string(mapping, "value", "path"),
                false,
                Settings.split(Mirrors.strings(mapping, "consumes")),
                Settings.split(Mirrors.strings(mapping, "produces")));
    }
}
