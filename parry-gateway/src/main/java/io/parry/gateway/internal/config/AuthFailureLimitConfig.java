package io.parry.gateway.internal.config;

import io.parry.http.AddressBlocks;
import io.parry.ratelimit.AuthFailureLimit;
import io.parry.ratelimit.RateLimit;
import io.parry.ratelimit.RateLimitKey;
import java.util.List;

/**
 * A route's {@code auth.failureLimit}: how many authentication failures each client may have, counted
 * per client address after the file's trusted proxies. A value, so that a reload that did not change it
 * keeps the failures counted, and routes with equal settings share them.
 *
 * @param limit the failures a client may have: {@code burst} at once, then {@code rate} per {@code period}
 * @param maxKeys the clients remembered at most
 * @param trustedProxies the file's {@code forwarding.trustedProxies}
 */
public record AuthFailureLimitConfig(RateLimit limit, int maxKeys, List<String> trustedProxies) {

    /** The limit, with buckets of its own. */
    public AuthFailureLimit toLimit() {
        return AuthFailureLimit.builder(limit)
                .key(RateLimitKey.clientAddress(AddressBlocks.parse("trustedProxies", trustedProxies)))
                .maxKeys(maxKeys)
                .build();
    }
}
