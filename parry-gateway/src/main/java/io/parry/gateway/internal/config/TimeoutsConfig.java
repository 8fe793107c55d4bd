package io.parry.gateway.internal.config;

import io.parry.server.ServerTimeouts;
import java.time.Duration;

/**
 * The gateway server's timeouts (YAML {@code timeouts}); zero disables one.
 *
 * @param headerRead how long a client may take to send a request's headers (default 10 s)
 * @param idle how long a keep-alive connection may sit idle (default 60 s)
 * @param request how long a whole request may take (default 30 s)
 * @param write how long a response write may stall (default 30 s)
 */
public record TimeoutsConfig(Duration headerRead, Duration idle, Duration request, Duration write) {
    /** The defaults, those of {@link ServerTimeouts#ofDefault()}. */
    public static final TimeoutsConfig DEFAULT = new TimeoutsConfig(
            ServerTimeouts.ofDefault().headerRead(),
            ServerTimeouts.ofDefault().idle(),
            ServerTimeouts.ofDefault().request(),
            ServerTimeouts.ofDefault().write());

    /** These timeouts as server options. */
    public ServerTimeouts toServerTimeouts() {
        return ServerTimeouts.builder()
                .headerRead(headerRead)
                .idle(idle)
                .request(request)
                .write(write)
                .build();
    }
}
