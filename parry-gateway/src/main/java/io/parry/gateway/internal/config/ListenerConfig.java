package io.parry.gateway.internal.config;

import static java.util.Objects.requireNonNull;

import io.parry.server.PathNormalization;

/**
 * A listening socket: the host or address to bind, the port, 0 for an ephemeral one, and how request
 * paths are read before routing.
 *
 * @param host a host name or address; {@code 0.0.0.0} binds every IPv4 interface
 * @param port the port, 0..65535
 * @param pathNormalization how request paths are read before routing (YAML {@code pathNormalization})
 */
public record ListenerConfig(String host, int port, PathNormalization pathNormalization) {
    /** Checks that the normalisation is there. */
    public ListenerConfig {
        requireNonNull(pathNormalization, "pathNormalization");
    }

    /** A listener with the default path normalisation. */
    public ListenerConfig(String host, int port) {
        this(host, port, PathNormalization.ofDefault());
    }
}
