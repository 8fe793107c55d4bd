package io.parry.gateway.internal.reload;

import io.parry.gateway.internal.config.GatewayConfig;
import io.parry.gateway.internal.routing.RouteTable;
import io.parry.gateway.internal.upstream.UpstreamGroup;
import java.time.Instant;
import java.util.Map;

/**
 * A configuration as applied: its version, the route table compiled from it and the upstream groups
 * the table's routes use. Immutable; swapped whole by a reload.
 *
 * @param version 1 for the configuration the gateway started with, one more for each applied change
 * @param config the configuration
 * @param table the live route table
 * @param upstreams the groups by name, in declaration order
 * @param appliedAt when it went live
 */
public record ActiveConfig(
        long version,
        GatewayConfig config,
        RouteTable table,
        Map<String, UpstreamGroup> upstreams,
        Instant appliedAt) {}
