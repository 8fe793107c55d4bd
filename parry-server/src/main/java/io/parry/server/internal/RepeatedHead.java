package io.parry.server.internal;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.ByteBufUtil;
import io.netty.buffer.Unpooled;
import io.netty.handler.codec.http.HttpHeaderNames;
import io.netty.handler.codec.http.HttpHeaderValues;
import io.netty.handler.codec.http.HttpMessage;
import io.netty.handler.codec.http.HttpRequest;
import io.netty.handler.codec.http.HttpVersion;
import io.parry.transport.spi.ReceivedFields;

/**
 * The header block of a connection's last request, byte for byte, with the request Netty decoded from it: a
 * keep-alive client that sends the same bytes again (health checks, polling, service clients with fixed fields) gets
 * that request object again instead of a second parse, as HTTP/2 gets a repeated header block from HPACK.
 *
 * <p>Only a head whose meaning is all in its bytes and whose body, if any, Netty would hand on in one piece is kept:
 * HTTP/1.1, no {@code Transfer-Encoding}, {@code Upgrade} or {@code Expect}, {@code Connection} absent or {@code
 * keep-alive}, one {@code Content-Length} of at most the decoder's chunk size, and at most {@value #MAX_SIZE} bytes.
 * After {@value #MAX_MISSES} heads in a row that differ from the one before, a connection keeps no more: its client
 * varies its heads (a request id, a cookie), and copying each one would be all cost. Per connection this holds one
 * array the size of the longest head kept, and one decoded request, until the connection has been idle for a second
 * ({@link Http1Connection#REPEATED_HEAD_IDLE_NANOS}). Used on the connection's event loop only.
 */
final class RepeatedHead {
    /** The longest header block kept, in bytes. */
    static final int MAX_SIZE = 1024;
    /** Heads in a row that differ from the one kept before a connection stops keeping them. */
    static final int MAX_MISSES = 8;

    private final int maxBody;
    /** The kept bytes as a buffer over an array owned here, for Netty's word-at-a-time compare. */
    private ByteBuf bytes;

    private HttpRequest request;
    private int bodyLength;
    private int misses;

    /** A repeated head's body is at most {@code maxBody} bytes: Netty's chunk size, the most it hands on at once. */
    RepeatedHead(int maxBody) {
        this.maxBody = maxBody;
    }

    /**
     * The request of the kept head when {@code buffer}'s readable bytes start with that head and hold its whole body;
     * else {@code null}. Nothing is read here.
     */
    HttpRequest match(ByteBuf buffer) {
        if (request == null) {
            return null;
        }
        int length = bytes.writerIndex();
        int readable = buffer.readableBytes();
        if (!ByteBufUtil.equals(buffer, buffer.readerIndex(), bytes, 0, Math.min(length, readable))) {
            missed();
            return null;
        }
        if (readable < length + bodyLength) {
            return null; // The same so far: the rest is yet to come, by the full path.
        }
        misses = 0;
        return request;
    }

    /** The length of the kept head, in bytes. */
    int length() {
        return bytes.writerIndex();
    }

    /** The length of the kept head's body, in bytes; 0 when it has none. */
    int bodyLength() {
        return bodyLength;
    }

    /**
     * Keeps {@code head}, decoded from {@code buffer}'s bytes {@code from} to {@code to}, if its meaning is all in
     * those bytes; else keeps nothing.
     */
    void keep(ByteBuf buffer, int from, int to, HttpMessage head) {
        if (misses >= MAX_MISSES) {
            return;
        }
        int length = to - from;
        long body = length <= MAX_SIZE ? repeatableBody(head) : -1;
        if (body < 0) {
            forget();
            return;
        }
        if (bytes == null || bytes.capacity() < length) {
            bytes = Unpooled.wrappedBuffer(new byte[length]);
        }
        bytes.clear().writeBytes(buffer, from, length);
        request = (HttpRequest) head;
        bodyLength = (int) body;
    }

    /** Keeps nothing more until the next {@link #keep}, and holds nothing meanwhile. */
    void forget() {
        request = null;
        bytes = null;
    }

    private void missed() {
        if (++misses >= MAX_MISSES) {
            forget();
        }
    }

    /** The body length of a head that may be repeated (0 when it has none), or -1 when it may not. */
    private long repeatableBody(HttpMessage head) {
        if (!(head instanceof HttpRequest) || !HttpVersion.HTTP_1_1.equals(head.protocolVersion())) {
            return -1;
        }
        ReceivedFields fields = ReceivedFields.of(head.headers());
        if (fields.contains(HttpHeaderNames.TRANSFER_ENCODING)
                || fields.contains(HttpHeaderNames.UPGRADE)
                || fields.contains(HttpHeaderNames.EXPECT)
                || fields.hadRepeatedContentLength()) {
            return -1;
        }
        String connection = fields.get(HttpHeaderNames.CONNECTION);
        if (connection != null
                && !(HttpHeaderValues.KEEP_ALIVE.contentEqualsIgnoreCase(connection)
                        && fields.isKeepAlive(HttpVersion.HTTP_1_1))) {
            return -1;
        }
        long length;
        try {
            length = fields.contentLength();
        } catch (NumberFormatException e) {
            return -1;
        }
        return length <= maxBody ? Math.max(length, 0) : -1;
    }
}
