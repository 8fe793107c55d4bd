package io.parry.gateway.internal.config;

import io.parry.proxy.HostRewrite;
import io.parry.proxy.RetryPolicy;

/**
 * Forward the request to an upstream group (YAML {@code proxy}).
 *
 * @param upstream the name of the upstream group, defined in the same file
 * @param path how the upstream path is made from the request's
 * @param host which {@code Host} the upstream sees: {@code keep} (the default), {@code endpoint}, or a
 *     fixed host
 * @param requestHeaders rules applied to the request's headers on the way up
 * @param responseHeaders rules applied to the response's headers on the way down
 * @param timeouts the route's overrides of the upstream group's timeouts; {@link ClientTimeoutsConfig#NONE} for none
 * @param retry the retry policy (default {@link RetryPolicy#ofDefault()})
 */
public record ProxyAction(
        String upstream,
        PathRewriteConfig path,
        String host,
        HeaderRulesConfig requestHeaders,
        HeaderRulesConfig responseHeaders,
        ClientTimeoutsConfig timeouts,
        RetryConfig retry)
        implements RouteAction {

    /** The {@code host} setting as a proxy option. */
    public HostRewrite toHostRewrite() {
        switch (host) {
            case "keep":
                return HostRewrite.keep();
            case "endpoint":
                return HostRewrite.endpoint();
            default:
                return HostRewrite.fixed(host);
        }
    }
}
