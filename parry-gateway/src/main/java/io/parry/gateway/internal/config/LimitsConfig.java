package io.parry.gateway.internal.config;

import io.parry.server.RequestLimits;

/**
 * The gateway server's request limits (YAML {@code limits}); what is not configurable here keeps the
 * {@link RequestLimits} default.
 *
 * @param maxBodySize the largest request body, in bytes (default 10 MiB)
 * @param maxHeaderSize the largest request header block, in bytes (default 16 KiB)
 * @param maxConnections the most open client connections (default 10,000)
 */
public record LimitsConfig(long maxBodySize, int maxHeaderSize, int maxConnections) {
    /** The defaults, those of {@link RequestLimits#ofDefault()}. */
    public static final LimitsConfig DEFAULT = new LimitsConfig(
            RequestLimits.ofDefault().maxBodySize(),
            RequestLimits.ofDefault().maxHeaderSize(),
            RequestLimits.ofDefault().maxConnections());

    /** These limits as server options. */
    public RequestLimits toRequestLimits() {
        return RequestLimits.builder()
                .maxBodySize(maxBodySize)
                .maxHeaderSize(maxHeaderSize)
                .maxConnections(maxConnections)
                .build();
    }
}
