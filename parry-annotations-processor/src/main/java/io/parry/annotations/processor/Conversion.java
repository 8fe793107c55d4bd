package io.parry.annotations.processor;

import java.util.ArrayList;
import java.util.List;
import java.util.UUID;
import javax.lang.model.element.Element;
import javax.lang.model.element.ElementKind;
import javax.lang.model.element.TypeElement;
import javax.lang.model.type.DeclaredType;
import javax.lang.model.type.TypeMirror;

/** The generated expression that turns a parameter's text into its type: {@code before + text + after}. */
record Conversion(String before, String after, List<String> constants) {
    static final String SUPPORTED = "String, int, long, double, boolean, their wrappers, UUID or an enum";

    String apply(String text) {
        return before + text + after;
    }

    /** The conversion to this type, or {@code null} when it is not one of the supported ones. */
    static Conversion to(TypeMirror type, Source source, String name) {
        String head = "(" + source.kind + ", " + JavaText.literal(name) + ", ";
        String parser =
                switch (type.getKind()) {
                    case INT -> "toInt";
                    case LONG -> "toLong";
                    case DOUBLE -> "toDouble";
                    case BOOLEAN -> "toBoolean";
                    case DECLARED -> declared(type.toString());
                    default -> null;
                };
        if (parser != null) {
            return parser.isEmpty()
                    ? new Conversion("", "", List.of())
                    : new Conversion("Arguments." + parser + head, ")", List.of());
        }
        List<String> constants = enumConstants(type);
        if (constants == null) {
            return null;
        }
        String valueOf = ((TypeElement) ((DeclaredType) type).asElement()).getQualifiedName() + "::valueOf";
        return new Conversion(
                "Arguments.toEnum" + head,
                ", " + valueOf + ", " + JavaText.literal(String.join(", ", constants)) + ")",
                constants);
    }

    /** {@code null} when the default value converts to the type, else what it should have been. */
    String checkDefault(TypeMirror type, String value) {
        try {
            switch (type.toString()) {
                case "int", "java.lang.Integer" -> Integer.parseInt(value);
                case "long", "java.lang.Long" -> Long.parseLong(value);
                case "double", "java.lang.Double" -> Double.parseDouble(value);
                case "boolean", "java.lang.Boolean" -> {
                    if (!value.equalsIgnoreCase("true") && !value.equalsIgnoreCase("false")) {
                        return "true or false";
                    }
                }
                case "java.util.UUID" -> UUID.fromString(value);
                default -> {
                    if (!constants.isEmpty() && !constants.contains(value)) {
                        return "one of " + String.join(", ", constants);
                    }
                }
            }
            return null;
        } catch (IllegalArgumentException e) {
            return "a value of type " + type;
        }
    }

    private static String declared(String name) {
        return switch (name) {
            case "java.lang.String" -> "";
            case "java.lang.Integer" -> "toInt";
            case "java.lang.Long" -> "toLong";
            case "java.lang.Double" -> "toDouble";
            case "java.lang.Boolean" -> "toBoolean";
            case "java.util.UUID" -> "toUuid";
            default -> null;
        };
    }

    private static List<String> enumConstants(TypeMirror type) {
        if (!(type instanceof DeclaredType declared) || declared.asElement().getKind() != ElementKind.ENUM) {
            return null;
        }
        List<String> constants = new ArrayList<>();
        for (Element member : declared.asElement().getEnclosedElements()) {
            if (member.getKind() == ElementKind.ENUM_CONSTANT) {
                constants.add(member.getSimpleName().toString());
            }
        }
        return constants;
    }
}
