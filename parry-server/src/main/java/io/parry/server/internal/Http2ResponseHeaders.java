package io.parry.server.internal;

import io.netty.handler.codec.http.HttpHeaderNames;
import io.netty.handler.codec.http2.DefaultHttp2Headers;
import io.netty.handler.codec.http2.Http2Headers;
import io.netty.util.AsciiString;
import io.parry.http.HttpHeaders;
import io.parry.http.HttpResponse;
import io.parry.http.spi.AsciiCase;

/**
 * A response's HTTP/2 header block: {@code :status}, the application's fields with lower-case names
 * (RFC 9113, section 8.2.1) less the connection-specific ones (section 8.2.2) and the length the
 * server owns, plus {@code date} and {@code content-length} when the length is known.
 */
final class Http2ResponseHeaders {
    private Http2ResponseHeaders() {}

    static Http2Headers of(HttpResponse response, long length) {
        HttpHeaders fields = response.headers();
        Http2Headers headers = new DefaultHttp2Headers(false, fields.size() + 3);
        headers.status(NettyStatuses.of(response.status()).codeAsText());
        boolean hasDate = false;
        for (int i = 0; i < fields.size(); i++) {
            String name = fields.name(i);
            if (connectionSpecific(name) || AsciiCase.equalsIgnoreCase(name, "content-length")) {
                continue;
            }
            hasDate |= AsciiCase.equalsIgnoreCase(name, "date");
            headers.add(lowerCase(name), fields.value(i));
        }
        if (!hasDate) {
            headers.add(HttpHeaderNames.DATE, HttpDate.now());
        }
        if (length >= 0 && !response.status().forbidsBody()) {
            headers.add(HttpHeaderNames.CONTENT_LENGTH, ContentLengths.of(length));
        }
        return headers;
    }

    /** Trailer fields, names lower-cased, connection-specific ones left out. */
    static Http2Headers trailers(HttpHeaders fields) {
        Http2Headers headers = new DefaultHttp2Headers(false, fields.size());
        for (int i = 0; i < fields.size(); i++) {
            if (!connectionSpecific(fields.name(i))) {
                headers.add(lowerCase(fields.name(i)), fields.value(i));
            }
        }
        return headers;
    }

    private static boolean connectionSpecific(String name) {
        return AsciiCase.equalsIgnoreCase(name, "connection")
                || AsciiCase.equalsIgnoreCase(name, "keep-alive")
                || AsciiCase.equalsIgnoreCase(name, "proxy-connection")
                || AsciiCase.equalsIgnoreCase(name, "transfer-encoding")
                || AsciiCase.equalsIgnoreCase(name, "upgrade");
    }

    private static CharSequence lowerCase(String name) {
        for (int i = 0; i < name.length(); i++) {
            char c = name.charAt(i);
            if (c >= 'A' && c <= 'Z') {
                return AsciiString.of(name).toLowerCase();
            }
        }
        return name;
    }
}
