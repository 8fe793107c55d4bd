package io.parry.annotations.processor;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import javax.lang.model.element.AnnotationMirror;
import javax.lang.model.element.AnnotationValue;
import javax.lang.model.element.Element;
import javax.lang.model.element.ExecutableElement;
import javax.lang.model.element.TypeElement;
import javax.lang.model.element.VariableElement;
import javax.lang.model.type.TypeMirror;

/**
 * Reads annotations by their qualified names, so that neither JAX-RS, Spring nor Parry's own
 * annotations need to be on the processor's class path. Only values written in the source are seen;
 * callers supply the defaults.
 */
final class Mirrors {
    private Mirrors() {}

    /** The annotation of this name on the element, or {@code null}. */
    static AnnotationMirror find(Element element, String name) {
        for (AnnotationMirror mirror : element.getAnnotationMirrors()) {
            if (nameOf(mirror).equals(name)) {
                return mirror;
            }
        }
        return null;
    }

    /** The first annotation on the element whose name is one of these, or {@code null}. */
    static AnnotationMirror findAny(Element element, List<String> names) {
        for (AnnotationMirror mirror : element.getAnnotationMirrors()) {
            if (names.contains(nameOf(mirror))) {
                return mirror;
            }
        }
        return null;
    }

    static String nameOf(AnnotationMirror mirror) {
        return ((TypeElement) mirror.getAnnotationType().asElement())
                .getQualifiedName()
                .toString();
    }

    static String simpleNameOf(AnnotationMirror mirror) {
        return mirror.getAnnotationType().asElement().getSimpleName().toString();
    }

    /** The attribute's value as written, or {@code null} when the source leaves it to its default. */
    static Object value(AnnotationMirror mirror, String attribute) {
        for (Map.Entry<? extends ExecutableElement, ? extends AnnotationValue> entry :
                mirror.getElementValues().entrySet()) {
            if (entry.getKey().getSimpleName().contentEquals(attribute)) {
                return entry.getValue().getValue();
            }
        }
        return null;
    }

    /** The first of these attributes that holds a non-empty string (the first element of an array), or {@code ""}. */
    static String string(AnnotationMirror mirror, String... attributes) {
        for (String attribute : attributes) {
            List<Object> values = values(value(mirror, attribute));
            if (!values.isEmpty() && !values.get(0).toString().isEmpty()) {
                return values.get(0).toString();
            }
        }
        return "";
    }

    /** The attribute's strings, an array or a single value; empty when absent. */
    static List<String> strings(AnnotationMirror mirror, String attribute) {
        List<String> strings = new ArrayList<>();
        for (Object value : values(value(mirror, attribute))) {
            strings.add(value.toString());
        }
        return strings;
    }

    /** The attribute's class literals; empty when absent. */
    static List<TypeMirror> types(AnnotationMirror mirror, String attribute) {
        List<TypeMirror> types = new ArrayList<>();
        for (Object value : values(value(mirror, attribute))) {
            types.add((TypeMirror) value);
        }
        return types;
    }

    /** The attribute's enum constants by name, such as {@code GET} for {@code RequestMethod.GET}. */
    static List<String> constants(AnnotationMirror mirror, String attribute) {
        List<String> names = new ArrayList<>();
        for (Object value : values(value(mirror, attribute))) {
            names.add(((VariableElement) value).getSimpleName().toString());
        }
        return names;
    }

    /** The attribute's boolean, or the default when the source leaves it out. */
    static boolean bool(AnnotationMirror mirror, String attribute, boolean defaultValue) {
        Object value = value(mirror, attribute);
        return value == null ? defaultValue : (Boolean) value;
    }

    private static List<Object> values(Object value) {
        List<Object> values = new ArrayList<>();
        if (value instanceof List<?> list) {
            for (Object item : list) {
                values.add(((AnnotationValue) item).getValue());
            }
        } else if (value != null) {
            values.add(value);
        }
        return values;
    }
}
