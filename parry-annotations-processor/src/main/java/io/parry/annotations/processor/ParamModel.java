package io.parry.annotations.processor;

import javax.lang.model.element.VariableElement;
import javax.lang.model.type.TypeMirror;

/**
 * One method parameter and how to fill it: {@code conversion} turns its text into
 * {@code valueType}; {@code optional} when the parameter is an {@code Optional} of it; for the
 * request, its context and the body only {@code element}, {@code source} and {@code valueType} count.
 */
record ParamModel(
        VariableElement element,
        Source source,
        String name,
        TypeMirror valueType,
        Conversion conversion,
        boolean required,
        boolean optional,
        String defaultValue) {}
