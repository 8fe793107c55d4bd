package io.parry.json.internal;

import io.parry.http.HttpRequest;
import io.parry.http.HttpResponse;
import io.parry.http.HttpStatus;
import io.parry.http.Problem;
import io.parry.json.InvalidInputException;
import io.parry.server.RequestContext;

/**
 * The problems a JSON endpoint answers itself, with the members the server's own problems have
 * (instance, request id) and the {@code errors} the server cannot know about.
 */
final class Problems {
    private Problems() {}

    static HttpResponse invalidInput(RequestContext ctx, HttpRequest request, InvalidInputException e) {
        return problem(ctx, request, HttpStatus.BAD_REQUEST, e.detail())
                .errors(e.errors())
                .toResponse();
    }

    /** A 415 that says, in {@code Accept}, what would have been accepted (RFC 9110, section 12.5.1). */
    static HttpResponse unsupportedMediaType(RequestContext ctx, HttpRequest request, String detail) {
        return problem(ctx, request, HttpStatus.UNSUPPORTED_MEDIA_TYPE, detail)
                .toResponse()
                .withHeader("accept", "application/json");
    }

    private static Problem problem(RequestContext ctx, HttpRequest request, HttpStatus status, String detail) {
        return Problem.of(status).detail(detail).instance(request.path()).requestId(ctx.requestId());
    }
}
