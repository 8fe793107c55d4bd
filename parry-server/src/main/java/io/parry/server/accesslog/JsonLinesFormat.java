package io.parry.server.accesslog;

import io.parry.server.EndedBy;
import io.parry.server.RequestLog;
import io.parry.server.internal.JsonText;
import java.net.InetSocketAddress;
import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;

/** One JSON object a line, with a fixed set of fields; unknown values are {@code null}. */
final class JsonLinesFormat implements AccessLogFormat {
    static final JsonLinesFormat INSTANCE = new JsonLinesFormat();

    private static final SecondsText TIME = new SecondsText(
            DateTimeFormatter.ofPattern("uuuu-MM-dd'T'HH:mm:ss.").withZone(ZoneOffset.UTC));

    private JsonLinesFormat() {}

    @Override
    public void format(RequestLog log, StringBuilder line) {
        line.append("{\"time\":\"");
        TIME.append(log.start(), line);
        SecondsText.appendMillis(log.start(), line);
        line.append("Z\",\"remote\":");
        JsonText.appendString(line, host(log.remoteAddress()));
        line.append(",\"method\":");
        JsonText.appendString(line, log.method() == null ? null : log.method().name());
        line.append(",\"path\":");
        JsonText.appendString(line, log.path());
        line.append(",\"route\":");
        JsonText.appendString(line, log.route());
        line.append(",\"status\":").append(log.status());
        line.append(",\"bytesIn\":").append(log.bytesIn());
        line.append(",\"bytesOut\":").append(log.bytesOut());
        line.append(",\"durationMs\":");
        JsonText.appendMillis(line, log.durationNanos());
        line.append(",\"upstream\":");
        JsonText.appendString(line, log.upstream());
        line.append(",\"endedBy\":");
        JsonText.appendString(line, endedBy(log.endedBy()));
        line.append(",\"traceId\":");
        JsonText.appendString(line, log.traceId());
        line.append(",\"spanId\":");
        JsonText.appendString(line, log.spanId());
        line.append(",\"requestId\":");
        JsonText.appendString(line, log.requestId());
        line.append(",\"userAgent\":");
        JsonText.appendString(line, log.userAgent());
        line.append('}');
    }

    private static String endedBy(EndedBy side) {
        if (side == null) {
            return null;
        }
        return switch (side) {
            case CLIENT -> "client";
            case UPSTREAM -> "upstream";
            case SERVER -> "server";
        };
    }

    /** The address without a reverse lookup. */
    static String host(InetSocketAddress address) {
        if (address == null) {
            return null;
        }
        return address.getAddress() != null ? address.getAddress().getHostAddress() : address.getHostString();
    }

    @Override
    public String toString() {
        return "AccessLogFormat.json()";
    }
}
