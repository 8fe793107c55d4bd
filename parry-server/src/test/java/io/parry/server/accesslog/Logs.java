package io.parry.server.accesslog;

import io.parry.http.HttpMethod;
import io.parry.server.RequestLog;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.UnknownHostException;
import java.time.Instant;

/** Request logs for format tests. */
final class Logs {
    private Logs() {}

    /** A GET of {@code /todos/42?full=yes} answered 200 with 57 bytes, at 2025-01-31T12:00:00.123Z. */
    static RequestLog.Builder get() {
        return RequestLog.builder()
                .method(HttpMethod.GET)
                .path("/todos/42")
                .query("full=yes")
                .route("/todos/{id}")
                .status(200)
                .completed(true)
                .bytesOut(57)
                .start(Instant.parse("2025-01-31T12:00:00.123Z"))
                .durationNanos(412_345)
                .trace("4bf92f3577b34da6a3ce929d0e0e4736", "00f067aa0ba902b7")
                .requestId("1-1")
                .userAgent("curl/8.5.0")
                .remoteAddress(address("10.0.0.7", 50_000));
    }

    static InetSocketAddress address(String ip, int port) {
        try {
            return new InetSocketAddress(InetAddress.getByName(ip), port);
        } catch (UnknownHostException e) {
            throw new AssertionError(e);
        }
    }

    static String format(AccessLogFormat format, RequestLog log) {
        StringBuilder line = new StringBuilder();
        format.format(log, line);
        return line.toString();
    }
}
