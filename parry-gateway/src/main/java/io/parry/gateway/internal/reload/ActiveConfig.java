package io.parry.gateway.internal.reload;

import io.parry.gateway.internal.config.GatewayConfig;
import io.parry.gateway.internal.upstream.UpstreamGroup;
import io.parry.server.routing.Router;
import java.time.Instant;
import java.util.Map;

/**
 * A configuration as applied: its version, the router compiled from it and the upstream groups its
 * routes use. Immutable; swapped whole by a reload.
 *
 * @param version 1 for the configuration the gateway started with, one more for each applied change
 * @param config the configuration
 * @param table the live router
 * @param upstreams the groups by name, in declaration order
 * @param appliedAt when it went live
 */
public record ActiveConfig(
        long version, GatewayConfig config, Router table, Map<String, UpstreamGroup> upstreams, Instant appliedAt) {}
