package io.parry.auth;

import static java.util.Objects.requireNonNull;

import com.nimbusds.jose.JWSAlgorithm;
import io.parry.auth.internal.Challenge;
import io.parry.auth.internal.ClaimHeaders;
import io.parry.auth.internal.IdentityContext;
import io.parry.auth.internal.TokenVerifier;
import io.parry.http.HttpRequest;
import io.parry.http.HttpResponse;
import io.parry.server.Filter;
import io.parry.server.Handler;
import io.parry.server.RequestContext;
import java.time.Duration;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;

/**
 * Admits requests that carry a valid JWT bearer token ({@code Authorization: Bearer <token>}, RFC
 * 6750) signed by a key of a {@link JwksSource}, and hands the verified {@link Identity} to the
 * handler. Immutable and shared by all requests.
 *
 * <pre>{@code
 * JwtFilter jwt = JwtFilter.builder(keys)
 *         .issuer("https://idp.example")
 *         .audiences(List.of("orders"))
 *         .requiredScopes(List.of("orders:read"))
 *         .forwardClaims(Map.of("sub", "x-user-id"))
 *         .build();
 * router.get("/orders", handler.with(jwt));
 * }</pre>
 *
 * <ul>
 *   <li>No token: 401 with {@code WWW-Authenticate: Bearer realm="..."}. A token that is malformed,
 *       signed with an algorithm not allowed, expired, not yet valid ({@code nbf}), for another
 *       issuer or audience, signed by an unknown key or with a wrong signature: 401 with {@code
 *       error="invalid_token"} and a short {@code error_description} (RFC 6750, section 3.1). A valid
 *       token without the route's scopes or claims: 403 with {@code error="insufficient_scope"}.
 *   <li>Only asymmetric algorithms are allowed (default {@code ES256} and {@code RS256}); HMAC and
 *       {@code none} are refused when the filter is built, and a key is used only for its own key type,
 *       so a public RSA key can never be used as an HMAC secret (RFC 8725, section 3.1).
 *   <li>Cheap checks run first: size, shape, algorithm, issuer, audience, times; the signature last.
 *       Verified tokens, and tokens whose signature failed, are remembered in a bounded cache (default
 *       10,000 tokens), so a repeated token costs one hash lookup and a flood of bad tokens costs
 *       little. {@code exp} is required; {@code exp} and {@code nbf} are compared with a clock skew
 *       (default 60 seconds).
 *   <li>Claims named by {@link Builder#forwardClaims} go to the handler (and a proxied upstream) as
 *       request fields; fields of those names that the client sent are always removed first.
 * </ul>
 *
 * <p>Runs on the event loop; when a key must be fetched, the request waits without blocking and
 * continues on its own event loop.
 */
public final class JwtFilter implements Filter {
    private static final String BEARER = "Bearer ";

    private final TokenVerifier verifier;
    private final String realm;
    private final Set<String> requiredScopes;
    private final String scopeText;
    private final Map<String, String> requiredClaims;
    private final Map<String, String> forwardClaims;

    private JwtFilter(Builder builder, Set<JWSAlgorithm> algorithms) {
        this.verifier = new TokenVerifier(
                builder.keys,
                algorithms,
                builder.issuer,
                Set.copyOf(builder.audiences),
                builder.clockSkew.toMillis(),
                builder.maxTokenLength,
                builder.maxCachedTokens);
        this.realm = builder.realm;
        this.requiredScopes = new LinkedHashSet<>(builder.requiredScopes);
        this.scopeText = String.join(" ", builder.requiredScopes);
        this.requiredClaims = Map.copyOf(builder.requiredClaims);
        this.forwardClaims = new LinkedHashMap<>(builder.forwardClaims);
    }

    /** A builder for tokens signed by these keys. */
    public static Builder builder(JwksSource keys) {
        return new Builder(requireNonNull(keys, "keys"));
    }

    @Override
    public CompletionStage<HttpResponse> filter(Handler next, RequestContext ctx, HttpRequest request)
            throws Exception {
        String authorization = request.headers().get("authorization");
        if (authorization == null || !authorization.regionMatches(true, 0, BEARER, 0, BEARER.length())) {
            return Challenge.bearerMissing(ctx, realm);
        }
        String token = authorization.substring(BEARER.length()).trim();
        CompletableFuture<TokenVerifier.Outcome> outcome =
                verifier.verify(token).toCompletableFuture();
        if (outcome.isDone()) {
            return decide(outcome.join(), next, ctx, request);
        }
        return outcome.thenComposeAsync(verified -> decideSafely(verified, next, ctx, request), ctx.eventLoop());
    }

    private CompletionStage<HttpResponse> decideSafely(
            TokenVerifier.Outcome outcome, Handler next, RequestContext ctx, HttpRequest request) {
        try {
            return decide(outcome, next, ctx, request);
        } catch (Exception e) {
            return CompletableFuture.failedFuture(e);
        }
    }

    private CompletionStage<HttpResponse> decide(
            TokenVerifier.Outcome outcome, Handler next, RequestContext ctx, HttpRequest request) throws Exception {
        if (outcome instanceof TokenVerifier.Invalid invalid) {
            return Challenge.bearerInvalid(ctx, realm, invalid.description());
        }
        Identity identity = ((TokenVerifier.Verified) outcome).identity();
        if (!identity.scopes().containsAll(requiredScopes) || !hasClaims(identity)) {
            return Challenge.bearerInsufficient(ctx, realm, scopeText);
        }
        return next.handle(new IdentityContext(ctx, identity), ClaimHeaders.apply(request, identity, forwardClaims));
    }

    private boolean hasClaims(Identity identity) {
        for (Map.Entry<String, String> required : requiredClaims.entrySet()) {
            Object value = identity.claims().get(required.getKey());
            boolean matches = value instanceof List<?> list
                    ? list.contains(required.getValue())
                    : value != null && required.getValue().equals(value.toString());
            if (!matches) {
                return false;
            }
        }
        return true;
    }

    /** The scopes a token must grant, in the order given; empty for none. */
    public Set<String> requiredScopes() {
        return Collections.unmodifiableSet(requiredScopes);
    }

    @Override
    public String toString() {
        return "JwtFilter[scopes=" + requiredScopes + ", claims=" + requiredClaims.keySet() + "]";
    }

    /** Settings of a {@link JwtFilter}; {@link #build()} validates them. */
    public static final class Builder {
        private static final Set<JWSAlgorithm> ASYMMETRIC = Set.of(
                JWSAlgorithm.RS256,
                JWSAlgorithm.RS384,
                JWSAlgorithm.RS512,
                JWSAlgorithm.PS256,
                JWSAlgorithm.PS384,
                JWSAlgorithm.PS512,
                JWSAlgorithm.ES256,
                JWSAlgorithm.ES384,
                JWSAlgorithm.ES512);

        private final JwksSource keys;
        private String issuer;
        private List<String> audiences = List.of();
        private List<String> algorithms = List.of("ES256", "RS256");
        private Duration clockSkew = Duration.ofSeconds(60);
        private List<String> requiredScopes = List.of();
        private Map<String, String> requiredClaims = Map.of();
        private Map<String, String> forwardClaims = Map.of();
        private String realm = "parry";
        private int maxCachedTokens = 10_000;
        private int maxTokenLength = 8192;

        private Builder(JwksSource keys) {
            this.keys = keys;
        }

        /** The {@code iss} a token must have; default any. */
        public Builder issuer(String issuer) {
            this.issuer = issuer;
            return this;
        }

        /** Audiences of which a token's {@code aud} must name one; default empty (any). */
        public Builder audiences(List<String> audiences) {
            this.audiences = List.copyOf(audiences);
            return this;
        }

        /** The signature algorithms allowed, by JOSE name; default {@code ES256} and {@code RS256}. */
        public Builder algorithms(List<String> algorithms) {
            this.algorithms = List.copyOf(algorithms);
            return this;
        }

        /** How far the clocks of issuer and gateway may disagree, for {@code exp} and {@code nbf}; default 60 s. */
        public Builder clockSkew(Duration skew) {
            this.clockSkew = requireNonNull(skew, "skew");
            return this;
        }

        /** Scopes a token must grant, all of them; default none. */
        public Builder requiredScopes(List<String> scopes) {
            this.requiredScopes = List.copyOf(scopes);
            return this;
        }

        /** Claims a token must have with these values (or, for a list claim, contain them); default none. */
        public Builder requiredClaims(Map<String, String> claims) {
            this.requiredClaims = new LinkedHashMap<>(claims);
            return this;
        }

        /** Claims to pass on as request fields, claim name to field name, such as {@code sub} to {@code x-user-id}. */
        public Builder forwardClaims(Map<String, String> claimToHeader) {
            this.forwardClaims = new LinkedHashMap<>(claimToHeader);
            return this;
        }

        /** The realm of the challenge; default {@code parry}. */
        public Builder realm(String realm) {
            this.realm = requireNonNull(realm, "realm");
            return this;
        }

        /** How many verified tokens are remembered; default 10,000. */
        public Builder maxCachedTokens(int tokens) {
            this.maxCachedTokens = tokens;
            return this;
        }

        /** The longest token read, in characters; longer ones are refused unparsed; default 8192. */
        public Builder maxTokenLength(int length) {
            this.maxTokenLength = length;
            return this;
        }

        /** The filter; fails with {@link IllegalArgumentException} naming a wrong setting. */
        public JwtFilter build() {
            if (algorithms.isEmpty()) {
                throw new IllegalArgumentException("algorithms: [] (expected: at least one, such as ES256)");
            }
            Set<JWSAlgorithm> allowed = new LinkedHashSet<>();
            for (String name : algorithms) {
                JWSAlgorithm algorithm = JWSAlgorithm.parse(name);
                if (!ASYMMETRIC.contains(algorithm)) {
                    throw new IllegalArgumentException("algorithms: " + name
                            + " (expected: RS256, RS384, RS512, PS256, PS384, PS512, ES256, ES384 or ES512;"
                            + " HMAC and none are refused)");
                }
                allowed.add(algorithm);
            }
            if (clockSkew.isNegative()) {
                throw new IllegalArgumentException("clockSkew: " + clockSkew + " (expected: >= 0)");
            }
            if (maxCachedTokens <= 0) {
                throw new IllegalArgumentException("maxCachedTokens: " + maxCachedTokens + " (expected: > 0)");
            }
            if (maxTokenLength <= 0) {
                throw new IllegalArgumentException("maxTokenLength: " + maxTokenLength + " (expected: > 0)");
            }
            if (realm.indexOf('"') >= 0 || realm.indexOf('\\') >= 0) {
                throw new IllegalArgumentException("realm: " + realm + " (expected: no quote or backslash)");
            }
            for (String scope : requiredScopes) {
                if (scope.isEmpty() || scope.indexOf(' ') >= 0 || scope.indexOf('"') >= 0) {
                    throw new IllegalArgumentException("requiredScopes: '" + scope + "' (expected: a scope token)");
                }
            }
            return new JwtFilter(this, Set.copyOf(allowed));
        }
    }
}
