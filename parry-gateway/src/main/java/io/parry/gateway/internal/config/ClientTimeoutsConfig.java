package io.parry.gateway.internal.config;

import io.parry.client.ClientTimeouts;
import java.time.Duration;

/**
 * Upstream call timeouts (YAML {@code timeouts} of an upstream group or a proxy route), as in
 * {@link ClientTimeouts}; zero disables one. An upstream group's have every field set; a route's hold
 * only the overrides it declares, the rest {@code null}.
 *
 * @param connect the connect timeout (default 2 s), or {@code null} when not overridden
 * @param responseHeaders how long to wait for the response headers (default 30 s), or {@code null}
 * @param bodyIdle how long the response body may stall (default 30 s), or {@code null}
 * @param call the whole call's deadline, zero for none (the default), or {@code null}
 */
public record ClientTimeoutsConfig(Duration connect, Duration responseHeaders, Duration bodyIdle, Duration call) {
    /** The defaults, those of {@link ClientTimeouts#ofDefault()}. */
    public static final ClientTimeoutsConfig DEFAULT = new ClientTimeoutsConfig(
            ClientTimeouts.ofDefault().connect(),
            ClientTimeouts.ofDefault().responseHeaders(),
            ClientTimeouts.ofDefault().bodyIdle(),
            ClientTimeouts.ofDefault().call());

    /** No overrides. */
    public static final ClientTimeoutsConfig NONE = new ClientTimeoutsConfig(null, null, null, null);

    /** Whether no field is set. */
    public boolean isEmpty() {
        return equals(NONE);
    }

    /** These timeouts with each field that is {@code null} here taken from {@code base}. */
    public ClientTimeoutsConfig orElse(ClientTimeoutsConfig base) {
        return new ClientTimeoutsConfig(
                connect != null ? connect : base.connect,
                responseHeaders != null ? responseHeaders : base.responseHeaders,
                bodyIdle != null ? bodyIdle : base.bodyIdle,
                call != null ? call : base.call);
    }

    /** These timeouts as client options, a field that is {@code null} taking the {@link ClientTimeouts} default. */
    public ClientTimeouts toOptions() {
        ClientTimeoutsConfig full = orElse(DEFAULT);
        return ClientTimeouts.builder()
                .connect(full.connect)
                .responseHeaders(full.responseHeaders)
                .bodyIdle(full.bodyIdle)
                .call(full.call)
                .build();
    }
}
