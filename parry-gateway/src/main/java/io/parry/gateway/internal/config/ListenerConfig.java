package io.parry.gateway.internal.config;

/**
 * A listening socket: the host or address to bind and the port, 0 for an ephemeral one.
 *
 * @param host a host name or address; {@code 0.0.0.0} binds every IPv4 interface
 * @param port the port, 0..65535
 */
public record ListenerConfig(String host, int port) {}
