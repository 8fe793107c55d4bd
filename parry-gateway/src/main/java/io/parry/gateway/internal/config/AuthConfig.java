package io.parry.gateway.internal.config;

import io.parry.auth.ApiKeyFilter;
import io.parry.auth.BasicAuthFilter;
import io.parry.auth.Credentials;
import io.parry.auth.JwksSource;
import io.parry.auth.JwtFilter;
import java.io.UncheckedIOException;
import java.net.URI;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;

/**
 * A route's authentication (YAML {@code auth}): exactly one of {@code jwt}, {@code apiKey}, {@code basic}.
 * Each builds its filter in one place, for the reader's validation and for the route alike; building
 * fails with {@link IllegalArgumentException} naming the wrong setting or the unreadable file.
 */
public sealed interface AuthConfig {

    /**
     * JWT bearer tokens verified with a JWK Set fetched from {@code jwksUrl}.
     *
     * @param jwksUrl where the key set is fetched
     * @param issuer the {@code iss} required, or {@code null} for any
     * @param audiences of which {@code aud} must name one; empty for any
     * @param algorithms the signature algorithms allowed
     * @param clockSkew the tolerance for {@code exp} and {@code nbf}
     * @param requiredScopes scopes a token must grant
     * @param requiredClaims claims a token must have with these values
     * @param forwardClaims claims passed on as request fields, claim to field name
     * @param refreshInterval the age at which the key set is fetched again
     * @param minRefreshInterval the shortest time between two fetches
     */
    record Jwt(
            URI jwksUrl,
            String issuer,
            List<String> audiences,
            List<String> algorithms,
            Duration clockSkew,
            List<String> requiredScopes,
            Map<String, String> requiredClaims,
            Map<String, String> forwardClaims,
            Duration refreshInterval,
            Duration minRefreshInterval)
            implements AuthConfig {

        /** The filter, verifying tokens with these keys. */
        public JwtFilter toFilter(JwksSource keys) {
            return JwtFilter.builder(keys)
                    .issuer(issuer)
                    .audiences(audiences)
                    .algorithms(algorithms)
                    .clockSkew(clockSkew)
                    .requiredScopes(requiredScopes)
                    .requiredClaims(requiredClaims)
                    .forwardClaims(forwardClaims)
                    .build();
        }
    }

    /**
     * API keys in a request field or query parameter.
     *
     * @param header the field, or {@code null} for none
     * @param queryParam the query parameter, or {@code null} for none
     * @param keys key names to hashes, when given in the file
     * @param keysFile a {@code name:hash} file read again when it changes, or {@code null}
     * @param forwardClaims {@code sub} (the key's name) to a request field, or empty
     */
    record ApiKey(
            String header,
            String queryParam,
            Map<String, String> keys,
            Path keysFile,
            Map<String, String> forwardClaims)
            implements AuthConfig {

        /** The filter, reading {@code keysFile} when there is one. */
        public ApiKeyFilter toFilter() {
            return ApiKeyFilter.builder(credentials(keys, keysFile))
                    .header(header)
                    .queryParam(queryParam)
                    .forwardClaims(forwardClaims)
                    .build();
        }
    }

    /**
     * HTTP Basic with bcrypt or Argon2id hashes.
     *
     * @param realm the challenge's realm
     * @param users user names to hashes, when given in the file
     * @param usersFile an htpasswd-style {@code name:hash} file read again when it changes, or {@code null}
     * @param forwardClaims {@code sub} (the user name) to a request field, or empty
     */
    record Basic(String realm, Map<String, String> users, Path usersFile, Map<String, String> forwardClaims)
            implements AuthConfig {

        /** The filter, reading {@code usersFile} when there is one. */
        public BasicAuthFilter toFilter() {
            return BasicAuthFilter.builder(credentials(users, usersFile))
                    .realm(realm)
                    .forwardClaims(forwardClaims)
                    .build();
        }
    }

    private static Credentials credentials(Map<String, String> inline, Path file) {
        try {
            return file != null ? Credentials.fromFile(file) : Credentials.of(inline);
        } catch (UncheckedIOException e) {
            throw new IllegalArgumentException(e.getMessage(), e);
        }
    }
}
