package io.parry.gateway.internal.config;

import io.parry.proxy.HeaderRules;
import io.parry.proxy.HostRewrite;
import io.parry.proxy.PathRewrite;
import io.parry.proxy.RetryPolicy;
import io.parry.proxy.WebSocketProxyOptions;

/**
 * Forward the request to an upstream group (YAML {@code proxy}).
 *
 * @param upstream the name of the upstream group, defined in the same file; {@code null} when the
 *     route is split
 * @param path how the upstream path is made from the request's
 * @param host which {@code Host} the upstream sees (default {@link HostRewrite#keep()})
 * @param requestHeaders rules applied to the request's headers on the way up: removals, then sets, then adds
 * @param responseHeaders rules applied to the response's headers on the way down, in the same order
 * @param timeouts the route's overrides of the upstream group's timeouts; {@link TimeoutOverrides#NONE} for none
 * @param retry the retry policy (default {@link RetryPolicy#ofDefault()})
 * @param webSocket how WebSocket upgrades are proxied (default {@link WebSocketProxyOptions#ofDefault()})
 * @param split the weighted split across upstream groups, or {@code null} when the route has one upstream
 */
public record ProxyAction(
        String upstream,
        PathRewrite path,
        HostRewrite host,
        HeaderRules requestHeaders,
        HeaderRules responseHeaders,
        TimeoutOverrides timeouts,
        RetryPolicy retry,
        WebSocketProxyOptions webSocket,
        SplitConfig split)
        implements RouteAction {

    /** An action that proxies to one upstream group. */
    public ProxyAction(
            String upstream,
            PathRewrite path,
            HostRewrite host,
            HeaderRules requestHeaders,
            HeaderRules responseHeaders,
            TimeoutOverrides timeouts,
            RetryPolicy retry,
            WebSocketProxyOptions webSocket) {
        this(upstream, path, host, requestHeaders, responseHeaders, timeouts, retry, webSocket, null);
    }
}
