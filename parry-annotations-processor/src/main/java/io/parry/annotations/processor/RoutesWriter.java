package io.parry.annotations.processor;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import javax.lang.model.element.Modifier;
import javax.lang.model.type.TypeMirror;

/**
 * Writes the Java source of a controller's routes class: one method per route that builds its
 * {@code Handler} from the controller and {@code JsonEndpoints}, and {@code addTo} registering each
 * with its pattern, media types, scheduling, filters and error handlers. Written to be read.
 */
final class RoutesWriter {
    private final ControllerModel controller;
    private final String openApi;
    private final StringBuilder out = new StringBuilder();

    RoutesWriter(ControllerModel controller, String openApi) {
        this.controller = controller;
        this.openApi = openApi;
    }

    String write() {
        String type = controller.type().getQualifiedName().toString();
        String name = controller.routesName();
        boolean isPublic = controller.type().getModifiers().contains(Modifier.PUBLIC);
        if (!controller.packageName().isEmpty()) {
            line("package " + controller.packageName() + ";").line("");
        }
        for (String imported : List.of(
                "io.parry.annotations.ControllerRoutes",
                "io.parry.annotations.spi.Arguments",
                "io.parry.annotations.spi.Results",
                "io.parry.annotations.spi.RouteFilters",
                "io.parry.http.HttpMethod",
                "io.parry.http.HttpRequest",
                "io.parry.http.MediaType",
                "io.parry.json.JsonEndpoints",
                "io.parry.server.ErrorHandler",
                "io.parry.server.Filter",
                "io.parry.server.Handler",
                "io.parry.server.routing.Router",
                "java.util.List",
                "java.util.Map",
                "java.util.Objects",
                "java.util.Optional",
                "javax.annotation.processing.Generated")) {
            line("import " + imported + ";");
        }
        line("").line("/**")
                .line(" * The routes of {@link " + type + "}, generated from its annotations by Parry's annotation")
                .line(" * processor: change the controller, not this file.")
                .line(" */")
                .line("@Generated(\"io.parry.annotations.processor.ControllerProcessor\")")
                .line((isPublic ? "public " : "") + "final class " + name + " implements ControllerRoutes {")
                .line("    private final " + type + " controller;")
                .line("    private final JsonEndpoints json;")
                .line("    private final List<Filter> around;")
                .line("    private final Map<String, Filter> named;")
                .line("")
                .line(
                        "    /** The controller's routes, reading and writing JSON with these endpoints' codec, validator and limit. */")
                .line("    public " + name + "(" + type + " controller, JsonEndpoints json) {")
                .line(
                        "        this(Objects.requireNonNull(controller, \"controller\"), Objects.requireNonNull(json, \"json\"),"
                                + " List.of(), Map.of());")
                .line("    }")
                .line("")
                .line("    private " + name + "(" + type
                        + " controller, JsonEndpoints json, List<Filter> around, Map<String, Filter> named) {")
                .line("        this.controller = controller;")
                .line("        this.json = json;")
                .line("        this.around = around;")
                .line("        this.named = named;")
                .line("    }")
                .line("")
                .line("    /** The controller's routes with {@link JsonEndpoints#ofDefault()}. */")
                .line("    public static " + name + " of(" + type + " controller) {")
                .line("        return new " + name + "(controller, JsonEndpoints.ofDefault());")
                .line("    }")
                .line("");
        addTo();
        override(
                name + " with(Filter... filters)",
                "new " + name + "(controller, json, RouteFilters.plus(around, filters), named)");
        override("List<Filter> filters()", "around");
        override(
                name + " named(Map<String, ? extends Filter> filters)",
                "new " + name + "(controller, json, around, Map.copyOf(filters))");
        override("Map<String, Filter> namedFilters()", "named");
        override("String openApi()", "String.join(\"\", " + chunks(openApi) + ")");
        for (RouteModel route : controller.routes()) {
            line("");
            handler(route);
        }
        return line("}").out.toString();
    }

    private void addTo() {
        line("    @Override").line("    public void addTo(Router.Builder router) {");
        Map<String, String> instances = new LinkedHashMap<>();
        for (RouteModel route : controller.routes()) {
            declare(route.filters(), "Filter", "filter", instances);
            declare(route.errorHandlers(), "ErrorHandler", "errorHandler", instances);
        }
        for (RouteModel route : controller.routes()) {
            List<String> spec = new ArrayList<>();
            for (String type : route.consumes()) {
                spec.add(".consumes(MediaType.parse(" + JavaText.literal(type) + "))");
            }
            for (String type : route.produces()) {
                spec.add(".produces(MediaType.parse(" + JavaText.literal(type) + "))");
            }
            if (route.blocking()) {
                spec.add(".blocking()");
            } else if (route.executor() != null) {
                spec.add(".executor(" + JavaText.literal(route.executor()) + ")");
            }
            for (String filter : route.namedFilters()) {
                spec.add(".filter(RouteFilters.named(named, " + JavaText.literal(filter) + ", "
                        + JavaText.literal(controller.type().getSimpleName() + "."
                                + route.method().getSimpleName())
                        + "))");
            }
            for (TypeMirror filter : route.filters()) {
                spec.add(".filter(" + instances.get(filter.toString()) + ")");
            }
            for (TypeMirror errorHandler : route.errorHandlers()) {
                spec.add(".errorHandler(" + instances.get(errorHandler.toString()) + ")");
            }
            String head = "        router.route(HttpMethod." + route.httpMethod() + ", "
                    + JavaText.literal(route.pattern()) + ", " + route.handlerName() + "()";
            line(head + ", route -> RouteFilters.around(route, around)" + String.join("", spec) + ");");
        }
        line("    }");
    }

    /** A public method of {@code ControllerRoutes} that returns this expression. */
    private void override(String signature, String returned) {
        line("").line("    @Override")
                .line("    public " + signature + " {")
                .line("        return " + returned + ";")
                .line("    }");
    }

    private void declare(List<TypeMirror> types, String kind, String variable, Map<String, String> instances) {
        for (TypeMirror type : types) {
            if (!instances.containsKey(type.toString())) {
                String name = variable + instances.size();
                instances.put(type.toString(), name);
                line("        " + kind + " " + name + " = new " + type + "();");
            }
        }
    }

    private void handler(RouteModel route) {
        line("    /** {@code " + route.httpMethod() + " " + route.pattern().replace("*/", "*&#47;") + "}: {@link "
                        + controller.type().getQualifiedName() + "#"
                        + route.method().getSimpleName() + "}. */")
                .line("    private Handler " + route.handlerName() + "() {");
        String body = route.body() == null ? null : erasure(route.body());
        boolean bare = route.returns().isResponse() && body == null;
        if (bare) {
            line("        return (ctx, request) -> {");
        } else if (body == null) {
            line("        return json." + (route.returns().isStage() ? "withoutBody" : "syncWithoutBody")
                    + "((ctx, request) -> {");
        } else {
            line("        return json." + (route.returns().isStage() ? "of" : "sync") + "(" + body
                    + ".class, (ctx, body) -> {");
            if (readsRequest(route)) {
                line("            HttpRequest request = ctx.request();");
            }
        }
        List<String> arguments = new ArrayList<>();
        for (ParamModel param : route.params()) {
            arguments.add(argument(param, "a" + arguments.size()));
        }
        String call = "controller." + route.method().getSimpleName() + "(" + String.join(", ", arguments) + ")";
        switch (route.returns()) {
            case VOID -> line("            " + call + ";").line("            return null;");
            case OPTIONAL -> line("            return Results.found(" + call + ");");
            case STAGE_OF_OPTIONAL -> line("            return " + call + ".thenApply(Results::found);");
            case RESPONSE -> line("            return " + call + (bare ? ".toStage();" : ";"));
            default -> line("            return " + call + ";");
        }
        line(bare ? "        };" : "        });").line("    }");
    }

    private static boolean readsRequest(RouteModel route) {
        for (ParamModel param : route.params()) {
            if (param.source() == Source.QUERY
                    || param.source() == Source.HEADER
                    || param.source() == Source.COOKIE
                    || param.source() == Source.REQUEST) {
                return true;
            }
        }
        return false;
    }

    /** Declares the argument's variable (and its text's) and returns its name. */
    private String argument(ParamModel param, String variable) {
        switch (param.source()) {
            case CONTEXT:
                return "ctx";
            case REQUEST:
                return "request";
            case BODY:
                return "body";
            default:
                break;
        }
        String raw = param.source().raw(param.name());
        String type = param.element().asType().toString();
        String kind = param.source().kind;
        String name = JavaText.literal(param.name());
        if (param.required()) {
            String text =
                    param.source() == Source.PATH ? raw : "Arguments.required(" + kind + ", " + name + ", " + raw + ")";
            line("            " + type + " " + variable + " = "
                    + param.conversion().apply(text) + ";");
            return variable;
        }
        String text = variable + "Text";
        if (param.defaultValue() != null) {
            line("            String " + text + " = Arguments.orDefault(" + raw + ", "
                    + JavaText.literal(param.defaultValue()) + ");");
        } else {
            line("            String " + text + " = " + raw + ";");
        }
        String converted = param.conversion().apply(text);
        if (param.optional()) {
            converted = "Optional.of(" + converted + ")";
        }
        if (param.defaultValue() != null) {
            line("            " + type + " " + variable + " = " + converted + ";");
        } else {
            String none = param.optional() ? "Optional.empty()" : "null";
            line("            " + type + " " + variable + " = " + text + " == null ? " + none + " : " + converted
                    + ";");
        }
        return variable;
    }

    private static String erasure(TypeMirror type) {
        String name = type.toString();
        int generic = name.indexOf('<');
        return generic < 0 ? name : name.substring(0, generic);
    }

    /** The text as string literals of at most 8,000 characters each, as a class constant holds at most 65,535 bytes. */
    private static String chunks(String text) {
        List<String> literals = new ArrayList<>();
        for (int i = 0; i < text.length(); i += 8000) {
            literals.add(JavaText.literal(text.substring(i, Math.min(text.length(), i + 8000))));
        }
        return literals.isEmpty() ? "\"\"" : String.join(",\n                ", literals);
    }

    private RoutesWriter line(String text) {
        out.append(text).append('\n');
        return this;
    }
}
