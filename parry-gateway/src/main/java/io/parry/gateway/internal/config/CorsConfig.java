package io.parry.gateway.internal.config;

import io.parry.http.HttpMethod;
import io.parry.server.cors.CorsFilter;
import java.time.Duration;
import java.util.List;

/**
 * A route's CORS settings (YAML {@code cors}), as a value: the server's {@link CorsFilter} is built
 * from it when routes are compiled.
 *
 * @param allowOrigins serialized origins, or {@code *} alone for any
 * @param allowMethods methods beyond the safelisted ones
 * @param allowHeaders request fields allowed, or {@code *} alone for any
 * @param exposeHeaders response fields scripts may read
 * @param allowCredentials whether credentials are allowed
 * @param maxAge how long a preflight may be cached, or {@code null} to send none
 */
public record CorsConfig(
        List<String> allowOrigins,
        List<String> allowMethods,
        List<String> allowHeaders,
        List<String> exposeHeaders,
        boolean allowCredentials,
        Duration maxAge) {

    /** The filter; {@link IllegalArgumentException} for settings it refuses. */
    public CorsFilter toFilter() {
        CorsFilter.Builder cors = CorsFilter.builder();
        if (allowOrigins.equals(List.of("*"))) {
            cors.allowAnyOrigin();
        } else {
            cors.allowOrigins(allowOrigins.toArray(new String[0]));
        }
        cors.allowMethods(allowMethods.stream().map(HttpMethod::of).toArray(HttpMethod[]::new));
        if (allowHeaders.equals(List.of("*"))) {
            cors.allowAnyHeader();
        } else {
            cors.allowHeaders(allowHeaders.toArray(new String[0]));
        }
        cors.exposeHeaders(exposeHeaders.toArray(new String[0])).allowCredentials(allowCredentials);
        if (maxAge != null) {
            cors.maxAge(maxAge);
        }
        return cors.build();
    }
}
