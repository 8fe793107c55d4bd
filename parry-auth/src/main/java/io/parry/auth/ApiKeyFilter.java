package io.parry.auth;

import static java.util.Objects.requireNonNull;

import io.parry.auth.internal.QueryParams;
import io.parry.auth.internal.SecretHash;
import io.parry.http.HttpRequest;
import io.parry.http.HttpResponse;
import io.parry.server.Filter;
import io.parry.server.Handler;
import io.parry.server.RequestContext;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.concurrent.CompletionStage;

/**
 * Admits requests that carry a known API key, in a request field (default {@code X-Api-Key}) or, when
 * configured, a query parameter, and hands the handler an {@link Identity} whose subject is the key's
 * name. Immutable and shared by all requests.
 *
 * <pre>{@code
 * ApiKeyFilter keys = ApiKeyFilter.builder(Credentials.fromFile(Path.of("api-keys.txt")))
 *         .queryParam("api_key")
 *         .build();
 * }</pre>
 *
 * <ul>
 *   <li>No key, or an unknown one: 401 problem+json with {@code WWW-Authenticate: ApiKey
 *       realm="..."}. Too many keys being checked at once: 503 with {@code Retry-After: 1}.
 *   <li>The key never reaches the handler or an upstream: its field is removed, and a key in the
 *       query is taken out of the request's target. In the access log the parameter's value is
 *       {@code REDACTED}, whether the key was good or not.
 *   <li>Keys are checked against their hashes on {@link SecretOptions#executor()}, never the event
 *       loop; verdicts are cached by a digest of the key. A key is compared with every stored hash
 *       until one matches, so with many bcrypt or Argon2 keys prefer {@code sha256:} hashes of random
 *       keys (see {@link Credentials}).
 * </ul>
 */
public final class ApiKeyFilter implements Filter {
    private final Credentials keys;
    private final String header;
    private final String queryParam;
    private final SecretAdmission admission;
    private final SecretChecks checks;

    private ApiKeyFilter(Builder builder) {
        this.keys = builder.keys;
        this.header = builder.header;
        this.queryParam = builder.queryParam;
        this.admission = new SecretAdmission(
                "ApiKey", "the API key is not valid", "ApiKey realm=\"" + builder.realm + "\"", builder.forwardClaims);
        this.checks = builder.options.checks(keys);
    }

    /** A builder for these keys. */
    public static Builder builder(Credentials keys) {
        return new Builder(requireNonNull(keys, "keys"));
    }

    @Override
    public CompletionStage<HttpResponse> filter(Handler next, RequestContext ctx, HttpRequest request)
            throws Exception {
        String key = header == null ? null : request.headers().get(header);
        HttpRequest forwarded = key == null ? request : request.mapHeaders(headers -> headers.remove(header));
        if (queryParam != null && !request.query().isEmpty()) {
            String inQuery = keyInQuery(ctx, request);
            if (inQuery != null) {
                String rest = QueryParams.rewrite(request.query(), queryParam, null);
                forwarded = forwarded.withTarget(request.path() + (rest.isEmpty() ? "" : "?" + rest));
                key = key == null ? inQuery : key;
            }
        }
        if (key == null || key.isEmpty()) {
            return admission.missing(ctx, "an API key is required");
        }
        String secret = key;
        return admission.admit(
                checks.check(SecretHash.cacheKey("key:" + secret), hashes -> nameOf(hashes, secret)),
                next,
                ctx,
                forwarded);
    }

    private String keyInQuery(RequestContext ctx, HttpRequest request) {
        String key;
        try {
            key = QueryParams.value(request.query(), queryParam);
        } catch (IllegalArgumentException e) {
            key = "";
        }
        if (key != null) {
            ctx.log().query(QueryParams.rewrite(request.query(), queryParam, "REDACTED"));
        }
        return key;
    }

    private static String nameOf(Map<String, SecretHash> hashes, String key) {
        for (Map.Entry<String, SecretHash> entry : hashes.entrySet()) {
            if (entry.getValue().matches(key)) {
                return entry.getKey();
            }
        }
        return null;
    }

    /** The request field that carries the key, or {@code null} when only the query may. */
    public String header() {
        return header;
    }

    /** The query parameter that carries the key, or {@code null} when only a field may. */
    public String queryParam() {
        return queryParam;
    }

    @Override
    public String toString() {
        return "ApiKeyFilter[header=" + header + ", queryParam=" + queryParam + ", " + keys + "]";
    }

    /** Settings of an {@link ApiKeyFilter}. */
    public static final class Builder {
        private final Credentials keys;
        private String header = "x-api-key";
        private String queryParam;
        private String realm = "parry";
        private Map<String, String> forwardClaims = Map.of();
        private SecretOptions options = SecretOptions.ofDefault();

        private Builder(Credentials keys) {
            this.keys = keys;
        }

        /** The request field that carries the key; default {@code X-Api-Key}; {@code null} for none. */
        public Builder header(String name) {
            this.header = name;
            return this;
        }

        /** The query parameter that carries the key when the field is absent; default none. */
        public Builder queryParam(String name) {
            this.queryParam = name;
            return this;
        }

        /** The realm of the challenge; default {@code parry}. */
        public Builder realm(String realm) {
            this.realm = requireNonNull(realm, "realm");
            return this;
        }

        /** Passes {@code sub} (the key's name) on as a request field, such as {@code sub} to {@code x-client}. */
        public Builder forwardClaims(Map<String, String> claimToHeader) {
            this.forwardClaims = new LinkedHashMap<>(claimToHeader);
            return this;
        }

        /** How keys are checked and their verdicts cached. */
        public Builder options(SecretOptions options) {
            this.options = requireNonNull(options, "options");
            return this;
        }

        /** The filter; fails with {@link IllegalArgumentException} naming a wrong setting. */
        public ApiKeyFilter build() {
            if (header == null && queryParam == null) {
                throw new IllegalArgumentException("header: null (expected: a header, a queryParam, or both)");
            }
            SecretAdmission.checkRealm(realm);
            return new ApiKeyFilter(this);
        }
    }
}
