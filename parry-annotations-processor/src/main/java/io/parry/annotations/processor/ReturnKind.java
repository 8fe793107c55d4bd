package io.parry.annotations.processor;

/** What a route method returns, which decides how its value becomes a response. */
enum ReturnKind {
    /** Nothing: 204. */
    VOID,
    /** A value (or a {@code JsonResult}) written as JSON. */
    VALUE,
    /** An {@code Optional}: its value as JSON, 404 when empty. */
    OPTIONAL,
    /** A stage of a value. */
    STAGE,
    /** A stage of an {@code Optional}. */
    STAGE_OF_OPTIONAL,
    /** An {@code HttpResponse}, sent as it is. */
    RESPONSE,
    /** A stage of an {@code HttpResponse}. */
    STAGE_OF_RESPONSE;

    boolean isResponse() {
        return this == RESPONSE || this == STAGE_OF_RESPONSE;
    }

    boolean isStage() {
        return this == STAGE || this == STAGE_OF_OPTIONAL || this == STAGE_OF_RESPONSE;
    }
}
