package io.parry.gateway.internal.admin;

import io.parry.http.HttpResponse;
import io.parry.http.HttpStatus;
import io.parry.http.Problem;
import io.parry.server.Handler;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.util.concurrent.CompletableFuture;

/**
 * Guards the admin API with a bearer token when one is configured (required off loopback): a request
 * without {@code Authorization: Bearer <token>} gets 401 with a {@code WWW-Authenticate} challenge
 * (RFC 6750, section 3). The token is compared in constant time.
 */
public final class AdminToken {
    private static final String BEARER = "Bearer ";

    private AdminToken() {}

    /** The admin handler, behind the token when there is one. */
    public static Handler protect(Handler admin, String token) {
        if (token == null) {
            return admin;
        }
        byte[] expected = token.getBytes(StandardCharsets.UTF_8);
        return (ctx, request) -> {
            String authorization = request.headers().get("authorization");
            boolean valid = authorization != null
                    && authorization.regionMatches(true, 0, BEARER, 0, BEARER.length())
                    && MessageDigest.isEqual(
                            authorization.substring(BEARER.length()).trim().getBytes(StandardCharsets.UTF_8), expected);
            if (valid) {
                return admin.handle(ctx, request);
            }
            HttpResponse refused = Problem.of(HttpStatus.UNAUTHORIZED)
                    .detail("the admin API requires its token")
                    .requestId(ctx.requestId())
                    .toResponse()
                    .withHeader("www-authenticate", "Bearer realm=\"parry-admin\"");
            return CompletableFuture.completedFuture(refused);
        };
    }
}
