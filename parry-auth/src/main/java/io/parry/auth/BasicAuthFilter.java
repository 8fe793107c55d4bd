package io.parry.auth;

import static java.util.Objects.requireNonNull;

import io.parry.auth.internal.SecretHash;
import io.parry.http.HttpRequest;
import io.parry.http.HttpResponse;
import io.parry.server.Filter;
import io.parry.server.Handler;
import io.parry.server.RequestContext;
import java.nio.charset.StandardCharsets;
import java.util.Base64;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.concurrent.CompletionStage;

/**
 * Admits requests with HTTP Basic credentials (RFC 7617) of a known user whose password matches its
 * stored bcrypt or Argon2id hash, and hands the handler an {@link Identity} whose subject is the user
 * name. Immutable and shared by all requests.
 *
 * <pre>{@code
 * BasicAuthFilter basic = BasicAuthFilter.builder(Credentials.fromFile(Path.of("htpasswd"))).realm("ops").build();
 * }</pre>
 *
 * <ul>
 *   <li>No credentials, malformed ones, an unknown user or a wrong password: 401 problem+json with
 *       {@code WWW-Authenticate: Basic realm="...", charset="UTF-8"} (RFC 7617, section 2.1). Too many
 *       passwords being checked at once: 503 with {@code Retry-After: 1}.
 *   <li>Hashes are checked on {@link SecretOptions#executor()}, never the event loop, at most {@link
 *       SecretOptions#maxConcurrentChecks()} at a time; verdicts, good and bad, are cached by a digest
 *       of user and password, so a client that sends the same credentials on every request pays for
 *       one hash per {@link SecretOptions#cacheTime()}.
 *   <li>The {@code Authorization} field is removed before the handler, so a password never reaches
 *       an upstream.
 * </ul>
 */
public final class BasicAuthFilter implements Filter {
    private static final String BASIC = "Basic ";

    private final Credentials users;
    private final SecretAdmission admission;
    private final SecretChecks checks;

    private BasicAuthFilter(Builder builder) {
        this.users = builder.users;
        this.admission = new SecretAdmission(
                "Basic",
                "user name or password is wrong",
                "Basic realm=\"" + builder.realm + "\", charset=\"UTF-8\"",
                builder.forwardClaims);
        this.checks = builder.options.checks(users);
    }

    /** A builder for these users. */
    public static Builder builder(Credentials users) {
        return new Builder(requireNonNull(users, "users"));
    }

    @Override
    public CompletionStage<HttpResponse> filter(Handler next, RequestContext ctx, HttpRequest request)
            throws Exception {
        String authorization = request.headers().get("authorization");
        String credentials = decode(authorization);
        int colon = credentials == null ? -1 : credentials.indexOf(':');
        if (colon < 0) {
            return admission.missing(ctx, "user name and password are required");
        }
        String user = credentials.substring(0, colon);
        String password = credentials.substring(colon + 1);
        HttpRequest forwarded = request.mapHeaders(headers -> headers.remove("authorization"));
        return admission.admit(
                checks.check(SecretHash.cacheKey("basic:" + credentials), hashes -> {
                    SecretHash hash = hashes.get(user);
                    return hash != null && hash.matches(password) ? user : null;
                }),
                next,
                ctx,
                forwarded);
    }

    private static String decode(String authorization) {
        if (authorization == null || !authorization.regionMatches(true, 0, BASIC, 0, BASIC.length())) {
            return null;
        }
        try {
            return new String(
                    Base64.getDecoder()
                            .decode(authorization.substring(BASIC.length()).trim()),
                    StandardCharsets.UTF_8);
        } catch (IllegalArgumentException e) {
            return null;
        }
    }

    @Override
    public String toString() {
        return "BasicAuthFilter[" + users + "]";
    }

    /** Settings of a {@link BasicAuthFilter}. */
    public static final class Builder {
        private final Credentials users;
        private String realm = "parry";
        private Map<String, String> forwardClaims = Map.of();
        private SecretOptions options = SecretOptions.ofDefault();

        private Builder(Credentials users) {
            this.users = users;
        }

        /** The realm of the challenge; default {@code parry}. */
        public Builder realm(String realm) {
            this.realm = requireNonNull(realm, "realm");
            return this;
        }

        /** Passes {@code sub} (the user name) on as a request field, such as {@code sub} to {@code x-user}. */
        public Builder forwardClaims(Map<String, String> claimToHeader) {
            this.forwardClaims = new LinkedHashMap<>(claimToHeader);
            return this;
        }

        /** How passwords are checked and their verdicts cached. */
        public Builder options(SecretOptions options) {
            this.options = requireNonNull(options, "options");
            return this;
        }

        /** The filter; fails with {@link IllegalArgumentException} naming a wrong setting. */
        public BasicAuthFilter build() {
            SecretAdmission.checkRealm(realm);
            return new BasicAuthFilter(this);
        }
    }
}
