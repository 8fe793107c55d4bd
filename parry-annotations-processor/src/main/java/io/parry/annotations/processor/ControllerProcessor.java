package io.parry.annotations.processor;

import java.io.IOException;
import java.io.Writer;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.Map;
import java.util.Set;
import javax.annotation.processing.AbstractProcessor;
import javax.annotation.processing.ProcessingEnvironment;
import javax.annotation.processing.RoundEnvironment;
import javax.lang.model.SourceVersion;
import javax.lang.model.element.Element;
import javax.lang.model.element.ElementKind;
import javax.lang.model.element.TypeElement;
import javax.tools.Diagnostic;

/**
 * Generates {@code <Controller>Routes} for every controller: a class carrying {@code @Controller},
 * JAX-RS's {@code @Path} or Spring's {@code @RestController}, or declaring a method with a route
 * annotation of any of them. Annotations are read by name, so none of JAX-RS, Spring or
 * parry-annotations is needed on the processor path. A mistake is a compile error on the element at
 * fault; two routes with the same method, path shape and media types are one, even across controllers.
 */
public final class ControllerProcessor extends AbstractProcessor {
    private final Map<String, String> routesSeen = new LinkedHashMap<>();
    private Reporter reporter;
    private ControllerReader reader;
    private OpenApiWriter openApi;

    @Override
    public synchronized void init(ProcessingEnvironment env) {
        super.init(env);
        reporter = new Reporter(env.getMessager());
        reader = new ControllerReader(env.getElementUtils(), env.getTypeUtils(), reporter);
        openApi = new OpenApiWriter(env.getTypeUtils(), env.getElementUtils());
    }

    @Override
    public Set<String> getSupportedAnnotationTypes() {
        return new LinkedHashSet<>(Names.supported());
    }

    @Override
    public SourceVersion getSupportedSourceVersion() {
        return SourceVersion.latestSupported();
    }

    @Override
    public boolean process(Set<? extends TypeElement> annotations, RoundEnvironment round) {
        Set<TypeElement> controllers = new LinkedHashSet<>();
        for (TypeElement annotation : annotations) {
            for (Element element : round.getElementsAnnotatedWith(annotation)) {
                Element type = element.getKind() == ElementKind.METHOD ? element.getEnclosingElement() : element;
                if (type instanceof TypeElement typeElement && type.getKind() == ElementKind.CLASS) {
                    controllers.add(typeElement);
                }
            }
        }
        for (TypeElement type : controllers) {
            ControllerModel controller = reader.read(type);
            if (controller != null && isUnique(controller)) {
                generate(controller);
            }
        }
        return false;
    }

    private boolean isUnique(ControllerModel controller) {
        int errorsBefore = reporter.errors();
        for (RouteModel route : controller.routes()) {
            String key = route.httpMethod() + " " + PathPatterns.shape(route.pattern()) + " consumes="
                    + route.consumes() + " produces=" + route.produces();
            String first = routesSeen.putIfAbsent(key, Reporter.describe(route.method()));
            if (first != null) {
                reporter.error(
                        route.method(),
                        "route " + route.httpMethod() + " " + route.pattern() + " is already declared by " + first
                                + " (expected: one method per route)");
            }
        }
        return reporter.errors() == errorsBefore;
    }

    private void generate(ControllerModel controller) {
        String name = controller.packageName().isEmpty()
                ? controller.routesName()
                : controller.packageName() + "." + controller.routesName();
        String source = new RoutesWriter(controller, openApi.write(controller)).write();
        try (Writer writer = processingEnv
                .getFiler()
                .createSourceFile(name, controller.type())
                .openWriter()) {
            writer.write(source);
        } catch (IOException e) {
            processingEnv
                    .getMessager()
                    .printMessage(
                            Diagnostic.Kind.ERROR, "cannot write " + name + ": " + e.getMessage(), controller.type());
        }
    }
}
