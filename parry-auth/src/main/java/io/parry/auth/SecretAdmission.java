package io.parry.auth;

import io.parry.auth.internal.Challenge;
import io.parry.auth.internal.ClaimHeaders;
import io.parry.auth.internal.IdentityContext;
import io.parry.http.HttpRequest;
import io.parry.http.HttpResponse;
import io.parry.server.Handler;
import io.parry.server.RequestContext;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;

/**
 * What the API-key and Basic filters do with a secret's verdict: 503 when too busy to check it, 401 with
 * the scheme's challenge when it names no one, else the handler with an {@link Identity} whose subject
 * is the name. A verdict that is not ready yet is acted on back on the request's event loop.
 */
final class SecretAdmission {
    private final String scheme;
    private final String refusal;
    private final String challenge;
    private final Map<String, String> forwardClaims;

    /**
     * @param scheme the identity's scheme, such as {@code Basic}
     * @param refusal the problem's detail for a secret that names no one
     * @param challenge the {@code WWW-Authenticate} value of a 401
     * @param forwardClaims the claims passed on as request fields
     */
    SecretAdmission(String scheme, String refusal, String challenge, Map<String, String> forwardClaims) {
        this.scheme = scheme;
        this.refusal = refusal;
        this.challenge = challenge;
        this.forwardClaims = new LinkedHashMap<>(forwardClaims);
    }

    /** Refuses a realm that would end or escape the challenge's quoted string (RFC 9110, section 5.6.4). */
    static void checkRealm(String realm) {
        if (realm.indexOf('"') >= 0 || realm.indexOf('\\') >= 0) {
            throw new IllegalArgumentException("realm: " + realm + " (expected: no quote or backslash)");
        }
    }

    /** The 401 for a request that carries no secret at all. */
    CompletionStage<HttpResponse> missing(RequestContext ctx, String detail) {
        return Challenge.unauthorized(ctx, detail, challenge);
    }

    /** Admits or refuses the request once the verdict is in. */
    CompletionStage<HttpResponse> admit(
            CompletionStage<SecretChecks.Verdict> verdict, Handler next, RequestContext ctx, HttpRequest request)
            throws Exception {
        CompletableFuture<SecretChecks.Verdict> future = verdict.toCompletableFuture();
        if (future.isDone()) {
            return decide(future.join(), next, ctx, request);
        }
        return future.thenComposeAsync(v -> decideSafely(v, next, ctx, request), ctx.eventLoop());
    }

    private CompletionStage<HttpResponse> decideSafely(
            SecretChecks.Verdict verdict, Handler next, RequestContext ctx, HttpRequest request) {
        try {
            return decide(verdict, next, ctx, request);
        } catch (Exception e) {
            return CompletableFuture.failedFuture(e);
        }
    }

    private CompletionStage<HttpResponse> decide(
            SecretChecks.Verdict verdict, Handler next, RequestContext ctx, HttpRequest request) throws Exception {
        if (verdict == SecretChecks.BUSY) {
            return Challenge.busy(ctx);
        }
        if (verdict.name() == null) {
            return Challenge.unauthorized(ctx, refusal, challenge);
        }
        Identity identity = new Identity(scheme, verdict.name(), Map.of("sub", verdict.name()), Set.of());
        return next.handle(new IdentityContext(ctx, identity), ClaimHeaders.apply(request, identity, forwardClaims));
    }
}
