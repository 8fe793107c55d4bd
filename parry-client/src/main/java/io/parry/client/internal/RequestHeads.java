package io.parry.client.internal;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.Unpooled;
import io.netty.handler.codec.http.DefaultFullHttpRequest;
import io.netty.handler.codec.http.DefaultHttpHeadersFactory;
import io.netty.handler.codec.http.DefaultHttpRequest;
import io.netty.handler.codec.http.EmptyHttpHeaders;
import io.netty.handler.codec.http.FullHttpRequest;
import io.netty.handler.codec.http.HttpHeaderNames;
import io.netty.handler.codec.http.HttpHeaderValues;
import io.netty.handler.codec.http.HttpHeadersFactory;
import io.netty.handler.codec.http.HttpVersion;
import io.netty.handler.codec.http.ReadOnlyHttpHeaders;
import io.parry.client.Endpoint;
import io.parry.http.HttpData;
import io.parry.http.HttpHeaders;
import io.parry.http.HttpMethod;
import io.parry.http.HttpRequest;
import io.parry.http.internal.AsciiCase;

/**
 * A request's head for Netty's encoder: the normalised path and raw query in origin form, the
 * caller's fields less any framing fields, {@code Host} when the caller set none, and the framing
 * the body calls for (RFC 9112, section 6): {@code Content-Length} for a known length, chunked
 * otherwise, nothing for an empty body of a method that expects none.
 */
final class RequestHeads {
    /** Parry's headers are validated when built, so Netty need not validate them again. */
    private static final HttpHeadersFactory TRUSTED =
            DefaultHttpHeadersFactory.headersFactory().withValidation(false);

    private RequestHeads() {}

    /** A whole request with its fixed body, for one write. */
    static FullHttpRequest full(HttpRequest request, Endpoint endpoint, HttpData data) {
        ByteBuf content = data.isEmpty() ? Unpooled.EMPTY_BUFFER : Unpooled.wrappedBuffer(data.asByteBuffer());
        return new DefaultFullHttpRequest(
                HttpVersion.HTTP_1_1,
                method(request),
                uri(request),
                content,
                headers(request, endpoint, data.length()),
                EmptyHttpHeaders.INSTANCE);
    }

    /** The head of a request whose body follows in chunks; {@code length} is -1 when unknown. */
    static io.netty.handler.codec.http.HttpRequest head(HttpRequest request, Endpoint endpoint, long length) {
        return new DefaultHttpRequest(
                HttpVersion.HTTP_1_1, method(request), uri(request), headers(request, endpoint, length));
    }

    /** Trailer fields for the last chunk. */
    static io.netty.handler.codec.http.HttpHeaders trailers(HttpHeaders trailers) {
        io.netty.handler.codec.http.HttpHeaders netty = TRUSTED.newHeaders();
        trailers.forEach(netty::add);
        return netty;
    }

    private static io.netty.handler.codec.http.HttpMethod method(HttpRequest request) {
        return io.netty.handler.codec.http.HttpMethod.valueOf(request.method().name());
    }

    private static String uri(HttpRequest request) {
        String query = request.query();
        return query.isEmpty() ? request.path() : request.path() + '?' + query;
    }

    private static io.netty.handler.codec.http.HttpHeaders headers(
            HttpRequest request, Endpoint endpoint, long length) {
        HttpHeaders fields = request.headers();
        boolean hasHost = false;
        int kept = 0;
        for (int i = 0; i < fields.size(); i++) {
            String name = fields.name(i);
            if (!isFraming(name)) {
                kept++;
                hasHost |= AsciiCase.equalsIgnoreCase(name, "host");
            }
        }
        CharSequence framingName = null;
        CharSequence framingValue = null;
        if (length < 0) {
            framingName = HttpHeaderNames.TRANSFER_ENCODING;
            framingValue = HttpHeaderValues.CHUNKED;
        } else if (length > 0 || expectsContent(request.method())) {
            framingName = HttpHeaderNames.CONTENT_LENGTH;
            framingValue = Long.toString(length);
        }
        int count = kept + (hasHost ? 0 : 1) + (framingName != null ? 1 : 0);
        CharSequence[] pairs = new CharSequence[2 * count];
        int next = 0;
        if (!hasHost) {
            pairs[next++] = HttpHeaderNames.HOST;
            pairs[next++] = endpoint.authority();
        }
        for (int i = 0; i < fields.size(); i++) {
            String name = fields.name(i);
            if (!isFraming(name)) {
                pairs[next++] = name;
                pairs[next++] = fields.value(i);
            }
        }
        if (framingName != null) {
            pairs[next++] = framingName;
            pairs[next] = framingValue;
        }
        return new ReadOnlyHttpHeaders(false, pairs);
    }

    private static boolean isFraming(String name) {
        return AsciiCase.equalsIgnoreCase(name, "content-length")
                || AsciiCase.equalsIgnoreCase(name, "transfer-encoding");
    }

    /**
     * RFC 9110, section 8.6: a user agent should not send {@code Content-Length} when there is no
     * content and the method does not anticipate any.
     */
    private static boolean expectsContent(HttpMethod method) {
        return !(method.equals(HttpMethod.GET)
                || method.equals(HttpMethod.HEAD)
                || method.equals(HttpMethod.DELETE)
                || method.equals(HttpMethod.OPTIONS)
                || method.equals(HttpMethod.TRACE));
    }
}
