package io.parry.annotations.processor;

import java.util.ArrayList;
import java.util.List;

/** The qualified names of the annotations the processor reads: Parry's, the JAX-RS subset and the Spring Web subset. */
final class Names {
    static final String PARRY = "io.parry.annotations.";
    static final String SPRING = "org.springframework.web.bind.annotation.";
    static final List<String> JAX_RS = List.of("jakarta.ws.rs.", "javax.ws.rs.");

    /** Spring's marker for "no default value" ({@code ValueConstants.DEFAULT_NONE}). */
    static final String SPRING_NO_DEFAULT = "\n\t\t\n\t\t\n\uE000\uE001\uE002\n\t\t\t\t\n";

    static final List<String> HTTP_METHODS = List.of("GET", "POST", "PUT", "PATCH", "DELETE");

    static final List<String> CONTROLLERS = List.of(PARRY + "Controller", SPRING + "RestController");
    static final List<String> JAX_RS_PATH = jaxRs("Path");

    private Names() {}

    static List<String> jaxRs(String simpleName) {
        List<String> names = new ArrayList<>();
        for (String prefix : JAX_RS) {
            names.add(prefix + simpleName);
        }
        return names;
    }

    static boolean isJaxRs(String name) {
        return name.startsWith(JAX_RS.get(0)) || name.startsWith(JAX_RS.get(1));
    }

    /** Every name whose presence makes the processor look at a class. */
    static List<String> supported() {
        List<String> names = new ArrayList<>(CONTROLLERS);
        names.addAll(JAX_RS_PATH);
        for (String method : HTTP_METHODS) {
            String camel = method.charAt(0) + method.substring(1).toLowerCase(java.util.Locale.ROOT);
            names.add(PARRY + camel);
            names.add(SPRING + camel + "Mapping");
            names.addAll(jaxRs(method));
        }
        names.add(SPRING + "RequestMapping");
        return names;
    }
}
