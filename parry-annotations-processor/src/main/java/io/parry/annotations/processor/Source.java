package io.parry.annotations.processor;

/** Where a method parameter's value comes from. */
enum Source {
    PATH("Arguments.PATH", "path"),
    QUERY("Arguments.QUERY", "query"),
    HEADER("Arguments.HEADER", "header"),
    COOKIE("Arguments.COOKIE", "cookie"),
    BODY(null, null),
    CONTEXT(null, null),
    REQUEST(null, null);

    /** The constant naming the kind in a 400's detail. */
    final String kind;
    /** OpenAPI's {@code in}. */
    final String in;

    Source(String kind, String in) {
        this.kind = kind;
        this.in = in;
    }

    /** The expression reading the raw text, {@code null} when absent. */
    String raw(String name) {
        String literal = JavaText.literal(name);
        return switch (this) {
            case PATH -> "Arguments.path(ctx, " + literal + ")";
            case QUERY -> "Arguments.query(request, " + literal + ")";
            case HEADER -> "Arguments.header(request, " + literal + ")";
            case COOKIE -> "Arguments.cookie(ctx, request, " + literal + ")";
            default -> throw new IllegalStateException("no raw text for " + this);
        };
    }
}
