package io.parry.server.internal;

import io.netty.handler.codec.http.HttpHeaderNames;
import io.netty.handler.codec.http.ReadOnlyHttpHeaders;
import io.parry.http.HttpHeaders;
import io.parry.http.HttpResponse;
import io.parry.http.spi.AsciiCase;

/**
 * A response's header block for Netty's encoder: the application's fields, less the framing ones the
 * server owns, plus {@code Date}, the framing field and {@code Connection}. Ordinary responses get a
 * flat read-only array, which costs no hashing; 1xx, 204 and 205 get Netty's mutable headers because
 * the encoder strips framing fields from those.
 */
final class ResponseHeaders {
    private ResponseHeaders() {}

    /**
     * @param framingName {@code content-length}, {@code transfer-encoding} or {@code null}
     * @param connection the {@code Connection} value to send, replacing the application's, or {@code null}
     */
    static io.netty.handler.codec.http.HttpHeaders of(
            HttpResponse response, CharSequence framingName, CharSequence framingValue, CharSequence connection) {
        HttpHeaders fields = response.headers();
        boolean hasDate = false;
        int kept = 0;
        for (int i = 0; i < fields.size(); i++) {
            String name = fields.name(i);
            if (keeps(name, connection)) {
                kept++;
                hasDate |= isDate(name);
            }
        }
        int count = kept + (hasDate ? 0 : 1) + (framingName != null ? 1 : 0) + (connection != null ? 1 : 0);
        CharSequence[] pairs = new CharSequence[2 * count];
        int next = 0;
        for (int i = 0; i < fields.size(); i++) {
            String name = fields.name(i);
            if (keeps(name, connection)) {
                pairs[next++] = name;
                pairs[next++] = fields.value(i);
            }
        }
        next = add(pairs, next, hasDate ? null : HttpHeaderNames.DATE, HttpDate.now());
        next = add(pairs, next, framingName, framingValue);
        add(pairs, next, connection != null ? HttpHeaderNames.CONNECTION : null, connection);
        int code = response.status().code();
        return code < 200 || code == 204 || code == 205 ? mutable(pairs) : new ReadOnlyHttpHeaders(false, pairs);
    }

    /** Whether the application's field {@code name} is sent: the server owns the framing fields and, when it sets one, Connection. */
    static boolean keeps(String name, CharSequence connection) {
        return !AsciiCase.equalsIgnoreCase(name, "content-length")
                && !AsciiCase.equalsIgnoreCase(name, "transfer-encoding")
                && (connection == null || !AsciiCase.equalsIgnoreCase(name, "connection"));
    }

    static boolean isDate(String name) {
        return AsciiCase.equalsIgnoreCase(name, "date");
    }

    private static int add(CharSequence[] pairs, int next, CharSequence name, CharSequence value) {
        if (name == null) {
            return next;
        }
        pairs[next] = name;
        pairs[next + 1] = value;
        return next + 2;
    }

    private static io.netty.handler.codec.http.HttpHeaders mutable(CharSequence[] pairs) {
        io.netty.handler.codec.http.HttpHeaders headers = NettyHeaders.TRUSTED.newHeaders();
        for (int i = 0; i < pairs.length; i += 2) {
            headers.add(pairs[i], pairs[i + 1]);
        }
        return headers;
    }
}
