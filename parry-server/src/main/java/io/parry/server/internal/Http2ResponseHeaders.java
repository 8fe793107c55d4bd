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
 * server owns, plus {@code date} and {@code content-length} when the length is known. Names and values
 * go in as {@link AsciiFields} has them, which HPACK hashes and compares faster than strings.
 */
final class Http2ResponseHeaders {
    private Http2ResponseHeaders() {}

    static Http2Headers of(HttpResponse response, long length) {
        return of(response, length, HttpDate.now());
    }

    /** The block with this {@code date}, unless the application gave its own. */
    static Http2Headers of(HttpResponse response, long length, AsciiString date) {
        HttpHeaders fields = response.headers();
        Http2Headers headers = new DefaultHttp2Headers(false, fields.size() + 3);
        headers.status(NettyStatuses.of(response.status()).codeAsText());
        AsciiFields ascii = AsciiFields.ofThread();
        boolean hasDate = false;
        for (int i = 0; i < fields.size(); i++) {
            String name = fields.name(i);
            if (connectionSpecific(name) || AsciiCase.equalsIgnoreCase(name, "content-length")) {
                continue;
            }
            hasDate |= AsciiCase.equalsIgnoreCase(name, "date");
            headers.add(name(name, ascii), ascii.of(fields.value(i)));
        }
        if (!hasDate) {
            headers.add(HttpHeaderNames.DATE, date);
        }
        if (length >= 0 && !response.status().forbidsBody()) {
            headers.add(HttpHeaderNames.CONTENT_LENGTH, ContentLengths.of(length));
        }
        return headers;
    }

    /** Trailer fields, names lower-cased, connection-specific ones left out. */
    static Http2Headers trailers(HttpHeaders fields) {
        Http2Headers headers = new DefaultHttp2Headers(false, fields.size());
        AsciiFields ascii = AsciiFields.ofThread();
        for (int i = 0; i < fields.size(); i++) {
            String name = fields.name(i);
            if (!connectionSpecific(name)) {
                headers.add(name(name, ascii), ascii.of(fields.value(i)));
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

    /** The name in lower case (AsciiString's {@code toLowerCase} makes no copy of a name already so). */
    private static CharSequence name(String name, AsciiFields ascii) {
        return ascii.of(name).toLowerCase();
    }
}
