package io.parry.proxy;

import io.parry.client.ClientTimeouts;
import io.parry.http.HttpRequest;
import io.parry.server.RequestContext;
import java.time.Duration;

/**
 * A gRPC call's deadline: its {@code grpc-timeout} counted from when the server received the request. Each attempt
 * sends upstream only what is left of it, so time spent in the gateway (filters, a failed attempt, a retry's backoff)
 * is not granted to the upstream again ("gRPC over HTTP/2": a proxy propagates the remaining timeout).
 *
 * @param atNanos the {@link System#nanoTime()} reading by which the call must end
 */
record GrpcDeadline(long atNanos) {
    private static final long MAX_VALUE = 99_999_999;
    private static final long[] UNIT_NANOS = {1, 1_000, 1_000_000, 1_000_000_000, 60_000_000_000L, 3_600_000_000_000L};
    private static final char[] UNITS = {'n', 'u', 'm', 'S', 'M', 'H'};

    /** The deadline of a gRPC request with a valid {@code grpc-timeout}, or {@code null}. */
    static GrpcDeadline of(RequestContext ctx, HttpRequest request) {
        Duration timeout = GrpcCalls.deadline(request.headers().get("grpc-timeout"));
        return timeout == null ? null : new GrpcDeadline(ctx.receivedNanos() + timeout.toNanos());
    }

    /** Nanoseconds left until the deadline; zero or less once it has passed. */
    long leftNanos() {
        return atNanos - System.nanoTime();
    }

    /** The upstream request with {@code grpc-timeout} saying what is left, {@code leftNanos} (above zero). */
    static HttpRequest forward(HttpRequest outbound, long leftNanos) {
        return outbound.withHeaders(outbound.headers().with("grpc-timeout", timeoutValue(leftNanos)));
    }

    /** The attempt's timeouts: the call bounded by what is left, when that is shorter than the configured bound. */
    static ClientTimeouts timeouts(ClientTimeouts configured, long leftNanos) {
        Duration left = Duration.ofNanos(leftNanos);
        Duration call = configured.call();
        return !call.isZero() && call.compareTo(left) <= 0
                ? configured
                : configured.toBuilder().call(left).build();
    }

    /**
     * A {@code grpc-timeout} value for a positive duration: at most 8 digits in the finest unit they fit, rounded
     * down, so the upstream never gets more time than is left.
     */
    static String timeoutValue(long nanos) {
        for (int i = 0; i < UNITS.length; i++) {
            long amount = nanos / UNIT_NANOS[i];
            if (amount <= MAX_VALUE) {
                return amount + String.valueOf(UNITS[i]);
            }
        }
        return MAX_VALUE + "H";
    }
}
