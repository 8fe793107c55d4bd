package io.parry.gateway.internal.config;

import io.parry.protection.IpRulesFilter;
import io.parry.protection.SecurityHeadersFilter;

/**
 * What protects a route: its own settings, or the file's {@code defaults} for those it leaves out
 * ({@code off} turns a default off). Each part is {@code null} when the route has none.
 *
 * @param ipRules the IP allow and deny rules, with the file's trusted proxies
 * @param cors the CORS settings
 * @param auth the authentication
 * @param authFailures the limit on each client's authentication failures, checked before {@code auth}
 * @param securityHeaders the security response fields
 * @param compression response compression and request decompression
 */
public record RouteProtection(
        IpRulesFilter ipRules,
        CorsConfig cors,
        AuthConfig auth,
        AuthFailureLimitConfig authFailures,
        SecurityHeadersFilter securityHeaders,
        CompressionConfig compression) {
    /** No protection. */
    public static final RouteProtection NONE = new RouteProtection(null, null, null, null, null, null);

    /** Whether there is nothing to apply. */
    public boolean isEmpty() {
        return equals(NONE);
    }
}
