package io.parry.annotations.processor;

import javax.lang.model.type.DeclaredType;
import javax.lang.model.type.TypeKind;
import javax.lang.model.type.TypeMirror;
import javax.lang.model.type.WildcardType;

/** What a route method returns: its kind, and the type written as JSON ({@code null} for none). */
record Returns(ReturnKind kind, TypeMirror output) {
    private static final String RESPONSE = "io.parry.http.HttpResponse";

    static Returns of(TypeMirror type) {
        if (type.getKind() == TypeKind.VOID) {
            return new Returns(ReturnKind.VOID, null);
        }
        if (type.toString().equals(RESPONSE)) {
            return new Returns(ReturnKind.RESPONSE, null);
        }
        if (isStage(type)) {
            TypeMirror value = argument(type);
            if (value.toString().equals(RESPONSE)) {
                return new Returns(ReturnKind.STAGE_OF_RESPONSE, null);
            }
            return ParamReader.isOptional(value)
                    ? new Returns(ReturnKind.STAGE_OF_OPTIONAL, argument(value))
                    : new Returns(ReturnKind.STAGE, value);
        }
        return ParamReader.isOptional(type)
                ? new Returns(ReturnKind.OPTIONAL, argument(type))
                : new Returns(ReturnKind.VALUE, type);
    }

    private static boolean isStage(TypeMirror type) {
        if (!(type instanceof DeclaredType declared)
                || declared.getTypeArguments().size() != 1) {
            return false;
        }
        String raw = declared.asElement().toString();
        return raw.equals("java.util.concurrent.CompletionStage")
                || raw.equals("java.util.concurrent.CompletableFuture");
    }

    private static TypeMirror argument(TypeMirror type) {
        TypeMirror argument = ((DeclaredType) type).getTypeArguments().get(0);
        if (argument instanceof WildcardType wildcard && wildcard.getExtendsBound() != null) {
            return wildcard.getExtendsBound();
        }
        return argument;
    }
}
