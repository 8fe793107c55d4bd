package io.parry.annotations.processor;

import java.util.List;
import javax.lang.model.element.ExecutableElement;
import javax.lang.model.type.TypeMirror;

/**
 * One route method as read from its annotations: {@code pattern} is the full path under the
 * controller's prefix; {@code body} the JSON content's type or {@code null}; {@code output} the type
 * written as JSON ({@code null} for none); {@code executor} a registered executor's name or {@code null};
 * {@code namedFilters} the names of filters given when the routes are made, outside {@code filters}.
 */
record RouteModel(
        ExecutableElement method,
        String handlerName,
        String httpMethod,
        String pattern,
        List<ParamModel> params,
        TypeMirror body,
        ReturnKind returns,
        TypeMirror output,
        List<String> consumes,
        List<String> produces,
        boolean blocking,
        String executor,
        List<TypeMirror> filters,
        List<String> namedFilters,
        List<TypeMirror> errorHandlers,
        String summary) {}
