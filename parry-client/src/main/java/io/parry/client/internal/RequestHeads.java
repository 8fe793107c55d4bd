package io.parry.client.internal;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.ByteBufAllocator;
import io.netty.buffer.Unpooled;
import io.parry.client.Endpoint;
import io.parry.http.HttpData;
import io.parry.http.HttpHeaders;
import io.parry.http.HttpMethod;
import io.parry.http.HttpRequest;
import io.parry.http.spi.AsciiCase;

/**
 * A request's head as the bytes that go on the wire, written straight from Parry's headers into one
 * buffer: the normalised path and raw query in origin form, the caller's fields less any framing
 * fields, {@code Host} when the caller set none, and the framing the body calls for (RFC 9112,
 * section 6): {@code Content-Length} for a known length, chunked otherwise, nothing for an empty body
 * of a method that expects none.
 */
final class RequestHeads {
    /** A fixed body up to this size is copied in after its head, so the request leaves as one buffer. */
    private static final int MAX_COPIED_BODY = 1024;

    private static final String VERSION = " HTTP/1.1\r\n";
    private static final String HOST = "host: ";
    private static final String CONTENT_LENGTH = "content-length: ";
    private static final String CHUNKED = "transfer-encoding: chunked\r\n";

    private RequestHeads() {}

    /** A whole request with its fixed body, for one write. */
    static ByteBuf full(ByteBufAllocator alloc, HttpRequest request, Endpoint endpoint, HttpData data) {
        byte[] head = encode(request, endpoint, data.length());
        if (data.length() > MAX_COPIED_BODY) {
            ByteBuf headBuffer = alloc.ioBuffer(head.length).writeBytes(head);
            return alloc.compositeBuffer(2)
                    .addComponents(true, headBuffer, Unpooled.wrappedBuffer(data.asByteBuffer()));
        }
        ByteBuf buffer = alloc.ioBuffer(head.length + data.length()).writeBytes(head);
        if (!data.isEmpty()) {
            buffer.writeBytes(data.asByteBuffer());
        }
        return buffer;
    }

    /** The head of a request whose body follows; {@code length} is -1 when unknown (then chunked). */
    static ByteBuf head(ByteBufAllocator alloc, HttpRequest request, Endpoint endpoint, long length) {
        byte[] head = encode(request, endpoint, length);
        return alloc.ioBuffer(head.length).writeBytes(head);
    }

    /** The request line and header block, measured first so the bytes are written into one exact array. */
    static byte[] encode(HttpRequest request, Endpoint endpoint, long length) {
        HttpHeaders fields = request.headers();
        String method = request.method().name();
        String path = request.path();
        String query = request.query();
        int size = method.length() + 1 + path.length() + (query.isEmpty() ? 0 : 1 + query.length()) + VERSION.length();
        boolean hasHost = false;
        for (int i = 0; i < fields.size(); i++) {
            String name = fields.name(i);
            if (!isFraming(name)) {
                size += name.length() + 2 + fields.value(i).length() + 2;
                hasHost |= AsciiCase.equalsIgnoreCase(name, "host");
            }
        }
        String authority = endpoint.authority();
        if (!hasHost) {
            size += HOST.length() + authority.length() + 2;
        }
        String declaredLength = null;
        if (length < 0) {
            size += CHUNKED.length();
        } else if (length > 0 || expectsContent(request.method())) {
            declaredLength = Long.toString(length);
            size += CONTENT_LENGTH.length() + declaredLength.length() + 2;
        }
        byte[] out = new byte[size + 2];
        int at = put(out, 0, method);
        out[at++] = ' ';
        at = put(out, at, path);
        if (!query.isEmpty()) {
            out[at++] = '?';
            at = put(out, at, query);
        }
        at = put(out, at, VERSION);
        if (!hasHost) {
            at = put(out, at, HOST);
            at = crlf(out, putLossy(out, at, authority));
        }
        for (int i = 0; i < fields.size(); i++) {
            String name = fields.name(i);
            if (!isFraming(name)) {
                at = put(out, at, name);
                out[at++] = ':';
                out[at++] = ' ';
                at = crlf(out, put(out, at, fields.value(i)));
            }
        }
        if (length < 0) {
            at = put(out, at, CHUNKED);
        } else if (declaredLength != null) {
            at = put(out, at, CONTENT_LENGTH);
            at = crlf(out, put(out, at, declaredLength));
        }
        crlf(out, at);
        return out;
    }

    /**
     * Copies Latin-1 text byte for byte. Only for text whose every character is below 256, as Parry's
     * validated methods, targets and header fields are: the deprecated {@code getBytes} drops each
     * character's high byte, and it is used because it copies without an intermediate array.
     */
    @SuppressWarnings("deprecation")
    private static int put(byte[] out, int at, String text) {
        text.getBytes(0, text.length(), out, at);
        return at + text.length();
    }

    /** Copies text nobody validated (an endpoint's host), writing {@code ?} for a character past Latin-1. */
    private static int putLossy(byte[] out, int at, String text) {
        for (int i = 0; i < text.length(); i++) {
            char c = text.charAt(i);
            out[at++] = (byte) (c < 256 ? c : '?');
        }
        return at;
    }

    private static int crlf(byte[] out, int at) {
        out[at] = '\r';
        out[at + 1] = '\n';
        return at + 2;
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
