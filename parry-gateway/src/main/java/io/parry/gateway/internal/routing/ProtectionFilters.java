package io.parry.gateway.internal.routing;

import io.parry.gateway.internal.config.AuthConfig;
import io.parry.gateway.internal.config.RouteProtection;
import io.parry.server.Filter;
import io.parry.server.Handler;

/**
 * Wraps a route's handler in its protection filters, in one fixed order, outermost first:
 *
 * <ol>
 *   <li>security response fields, so that every answer below carries them, refusals included;
 *   <li>IP rules: a refused address learns nothing more;
 *   <li>CORS: preflights carry no credentials, and CORS fields on a 401 let a script read it;
 *   <li>the limit on authentication failures, so that a client past it costs no verification or hash;
 *   <li>authentication (JWT, API key or Basic);
 *   <li>then limits (added by {@link RouteCompiler}, inside authentication);
 *   <li>then compression (responses compressed, request bodies inflated within their bound, only for
 *       requests every filter above let through), and the route's handler.
 * </ol>
 */
final class ProtectionFilters {
    private ProtectionFilters() {}

    /** The handler inside the route's filters; {@link IllegalArgumentException} when one cannot be built. */
    static Handler wrap(Handler handler, RouteProtection protection, AuthResources resources) {
        Handler wrapped = handler;
        if (protection.auth() != null) {
            Filter auth = auth(protection.auth(), resources);
            wrapped = wrapped.with(
                    protection.authFailures() == null
                            ? auth
                            : resources.failures(protection.authFailures()).guard(auth));
        }
        if (protection.cors() != null) {
            wrapped = wrapped.with(protection.cors().toFilter());
        }
        if (protection.ipRules() != null) {
            wrapped = wrapped.with(protection.ipRules());
        }
        if (protection.securityHeaders() != null) {
            wrapped = wrapped.with(protection.securityHeaders());
        }
        return wrapped;
    }

    private static Filter auth(AuthConfig auth, AuthResources resources) {
        if (auth instanceof AuthConfig.Jwt jwt) {
            return jwt.toFilter(resources.keys(jwt));
        }
        if (auth instanceof AuthConfig.ApiKey apiKey) {
            return apiKey.toFilter();
        }
        return ((AuthConfig.Basic) auth).toFilter();
    }
}
