package io.parry.server.accesslog;

import io.parry.server.RequestLog;
import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;
import java.util.Locale;

/**
 * The combined log format of Apache httpd and nginx, in UTC. Quoted values escape {@code "}, {@code \}
 * and control characters as httpd does ({@code \"}, {@code \\}, {@code \xhh}), so a client cannot
 * forge a line; an unknown value is {@code -}.
 */
final class CombinedLogFormat implements AccessLogFormat {
    static final CombinedLogFormat INSTANCE = new CombinedLogFormat();

    private static final SecondsText TIME =
            new SecondsText(DateTimeFormatter.ofPattern("dd/MMM/uuuu:HH:mm:ss Z", Locale.ENGLISH)
                    .withZone(ZoneOffset.UTC));
    private static final char[] HEX = "0123456789abcdef".toCharArray();

    private CombinedLogFormat() {}

    @Override
    public void format(RequestLog log, StringBuilder line) {
        String host = JsonLinesFormat.host(log.remoteAddress());
        line.append(host == null ? "-" : host).append(" - - [");
        TIME.append(log.start(), line);
        line.append("] \"");
        if (log.method() == null || log.path() == null) {
            line.append('-');
        } else {
            line.append(log.method().name()).append(' ');
            appendEscaped(line, log.path());
            if (log.query() != null && !log.query().isEmpty()) {
                line.append('?');
                appendEscaped(line, log.query());
            }
            line.append(' ').append(log.protocol());
        }
        line.append("\" ").append(log.status()).append(' ');
        if (log.bytesOut() == 0) {
            line.append('-'); // As httpd's %b.
        } else {
            line.append(log.bytesOut());
        }
        line.append(" \"");
        appendEscaped(line, log.referer());
        line.append("\" \"");
        appendEscaped(line, log.userAgent());
        line.append('"');
    }

    private static void appendEscaped(StringBuilder line, String value) {
        if (value == null) {
            line.append('-');
            return;
        }
        for (int i = 0; i < value.length(); i++) {
            char c = value.charAt(i);
            if (c == '"' || c == '\\') {
                line.append('\\').append(c);
            } else if (c < 0x20 || c == 0x7f) {
                line.append("\\x").append(HEX[c >> 4]).append(HEX[c & 0xf]);
            } else {
                line.append(c);
            }
        }
    }

    @Override
    public String toString() {
        return "AccessLogFormat.combined()";
    }
}
