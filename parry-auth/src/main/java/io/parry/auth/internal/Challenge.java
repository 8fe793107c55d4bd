package io.parry.auth.internal;

import io.parry.http.HttpResponse;
import io.parry.http.HttpStatus;
import io.parry.http.Problem;
import io.parry.server.RequestContext;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;

/**
 * The answers of an authentication filter that refuses a request: 401 with a {@code WWW-Authenticate}
 * challenge, 403 for credentials that do not grant enough, as problem+json.
 */
public final class Challenge {
    private Challenge() {}

    /**
     * 401 for a request without a token: a challenge without an error code (RFC 6750, section 3.1).
     */
    public static CompletionStage<HttpResponse> bearerMissing(RequestContext ctx, String realm) {
        return refuse(ctx, HttpStatus.UNAUTHORIZED, "a bearer token is required", "Bearer realm=\"" + realm + "\"");
    }

    /** 401 with {@code error="invalid_token"} (RFC 6750, section 3.1); the description names no secret. */
    public static CompletionStage<HttpResponse> bearerInvalid(RequestContext ctx, String realm, String description) {
        return refuse(
                ctx,
                HttpStatus.UNAUTHORIZED,
                "the bearer token is not valid: " + description,
                "Bearer realm=\"" + realm + "\", error=\"invalid_token\", error_description=\"" + description + "\"");
    }

    /** 403 with {@code error="insufficient_scope"} and the scope the route needs (RFC 6750, section 3.1). */
    public static CompletionStage<HttpResponse> bearerInsufficient(RequestContext ctx, String realm, String scope) {
        String challenge = "Bearer realm=\"" + realm + "\", error=\"insufficient_scope\""
                + (scope.isEmpty() ? "" : ", scope=\"" + scope + "\"");
        return refuse(ctx, HttpStatus.FORBIDDEN, "the token does not grant what this route requires", challenge);
    }

    /** 401 with a challenge for the scheme, such as {@code Basic realm="api", charset="UTF-8"}. */
    public static CompletionStage<HttpResponse> unauthorized(RequestContext ctx, String detail, String challenge) {
        return refuse(ctx, HttpStatus.UNAUTHORIZED, detail, challenge);
    }

    /** 503 when too many secrets are being checked at once: the client may try again. */
    public static CompletionStage<HttpResponse> busy(RequestContext ctx) {
        return CompletableFuture.completedFuture(Problem.of(HttpStatus.SERVICE_UNAVAILABLE)
                .detail("too many credentials are being checked; try again later")
                .requestId(ctx.requestId())
                .toResponse()
                .withHeader("retry-after", "1"));
    }

    private static CompletionStage<HttpResponse> refuse(
            RequestContext ctx, HttpStatus status, String detail, String challenge) {
        HttpResponse response = Problem.of(status)
                .detail(detail)
                .requestId(ctx.requestId())
                .toResponse()
                .withHeader("www-authenticate", challenge);
        return CompletableFuture.completedFuture(response);
    }
}
