package io.parry.server.internal;

import io.netty.handler.codec.http2.Http2Headers;
import io.netty.util.AsciiString;
import io.parry.http.HttpResponse;
import io.parry.http.spi.FixedBody;

/**
 * An HTTP/2 connection's header block for the last small fixed response it sent, given again to the
 * next stream that sends the same response (a constant {@code HttpResponse}) within the same second
 * of {@code date}: building a block costs a header map and its entries per stream.
 *
 * <p>Streams may share a block: Netty's encoder only reads it, even while a stream waits for its
 * window, and a block kept here is never changed. Only responses whose body is a small {@link
 * FixedBody} are kept, so a connection never holds on to a large body. Used on the connection's
 * event loop only.
 */
final class FixedResponseHeaders {
    /** Larger bodies are rarely constants: a connection keeps no block for them. */
    static final int MAX_BODY_BYTES = 1024;

    private HttpResponse response;
    private long length;
    private AsciiString date;
    private Http2Headers headers;

    /**
     * The header block of {@code response}, whose body is {@code length} bytes long (-1 when unknown),
     * with {@code now}, the {@link HttpDate} of this second.
     */
    Http2Headers of(HttpResponse response, long length, AsciiString now) {
        if (response == this.response && length == this.length && now == date) {
            return headers;
        }
        Http2Headers block = Http2ResponseHeaders.of(response, length, now);
        if (response.body() instanceof FixedBody && length <= MAX_BODY_BYTES) {
            this.response = response;
            this.length = length;
            this.date = now;
            this.headers = block;
        }
        return block;
    }
}
