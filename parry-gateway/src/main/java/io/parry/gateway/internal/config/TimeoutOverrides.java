package io.parry.gateway.internal.config;

import io.parry.client.ClientTimeouts;
import java.time.Duration;

/**
 * The upstream call timeouts a file gives (YAML {@code timeouts} of an upstream group or a proxy
 * route), each {@code null} when not given: a group's apply to the {@link ClientTimeouts} defaults, a
 * route's to its group's timeouts.
 *
 * @param connect the connect timeout, DNS included, or {@code null}
 * @param responseHeaders how long to wait for the response headers, or {@code null}
 * @param bodyIdle how long the response body may stall, or {@code null}
 * @param call the whole call's deadline, zero for none, or {@code null}
 */
public record TimeoutOverrides(Duration connect, Duration responseHeaders, Duration bodyIdle, Duration call) {
    /** No timeout given. */
    public static final TimeoutOverrides NONE = new TimeoutOverrides(null, null, null, null);

    /** Whether no timeout is given. */
    public boolean isEmpty() {
        return equals(NONE);
    }

    /**
     * {@code base} with the timeouts given here.
     *
     * @throws IllegalArgumentException if the client refuses a timeout
     */
    public ClientTimeouts applyTo(ClientTimeouts base) {
        ClientTimeouts.Builder builder = base.toBuilder();
        if (connect != null) {
            builder.connect(connect);
        }
        if (responseHeaders != null) {
            builder.responseHeaders(responseHeaders);
        }
        if (bodyIdle != null) {
            builder.bodyIdle(bodyIdle);
        }
        if (call != null) {
            builder.call(call);
        }
        return builder.build();
    }
}
