package io.parry.server.internal;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.ByteBufUtil;
import io.netty.buffer.Unpooled;
import io.netty.handler.codec.http.DefaultHttpRequest;
import io.netty.handler.codec.http.HttpHeaderNames;
import io.netty.handler.codec.http.HttpHeaderValues;
import io.netty.handler.codec.http.HttpMessage;
import io.netty.handler.codec.http.HttpRequest;
import io.netty.handler.codec.http.HttpVersion;
import io.netty.util.AsciiString;
import io.parry.transport.spi.ReceivedFields;
import java.nio.charset.StandardCharsets;
import java.util.Iterator;
import java.util.Map.Entry;

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
 *
 * <p>A head that differs from the kept one in one field's value only (a request id, a trace header) is not parsed
 * either: its request is the kept one's with that value, as Netty would read it, and takes the connection's full path
 * from there. The field may be none that frames the message or its connection ({@code Content-Length}, {@code
 * Transfer-Encoding}, {@code Connection}, {@code Upgrade}, {@code Expect}), and its new value only visible ASCII with
 * spaces and tabs inside: any other head, or one the listener's header size limit would refuse, is parsed.
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
    /** The length of the head {@link #match} last found, in bytes: the kept one's, or a varied one's. */
    private int matchedLength;

    /** The kept head's field lines: where each one's colon is, and its LF; {@code null} when it may not vary. */
    private int[] colons;

    private int[] lineEnds;
    /** Which field lines may vary, a bit each: those of no framing field. */
    private long variable;

    private final int maxHeaderSize;

    /**
     * A repeated head's body is at most {@code maxBody} bytes: Netty's chunk size, the most it hands on at once; a
     * varied head is at most {@code maxHeaderSize} bytes, the decoder's limit.
     */
    RepeatedHead(int maxBody, int maxHeaderSize) {
        this.maxBody = maxBody;
        this.maxHeaderSize = maxHeaderSize;
    }

    /**
     * The request of the kept head when {@code buffer}'s readable bytes start with that head and hold its whole body,
     * or a new one with a field's value varied when they start with such a head ({@link #length()} then says how long
     * it is); else {@code null}. Nothing is read here.
     */
    HttpRequest match(ByteBuf buffer) {
        if (request == null) {
            return null;
        }
        int length = bytes.writerIndex();
        int readable = buffer.readableBytes();
        int from = buffer.readerIndex();
        HttpRequest matched;
        if (ByteBufUtil.equals(buffer, from, bytes, 0, Math.min(length, readable))) {
            if (readable < length + bodyLength) {
                return null; // The same so far: the rest is yet to come, by the full path.
            }
            matchedLength = length;
            matched = request;
        } else {
            matched = colons == null ? null : varied(buffer, from, readable);
            if (matched == null) {
                missed();
                return null;
            }
        }
        misses = 0;
        return matched;
    }

    /** The length of the head {@link #match} found, in bytes. */
    int length() {
        return matchedLength;
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
        mapLines(ReceivedFields.of(head.headers()));
    }

    /** Keeps nothing more until the next {@link #keep}, and holds nothing meanwhile. */
    void forget() {
        request = null;
        bytes = null;
        colons = null;
        lineEnds = null;
    }

    /**
     * The request of a head that differs from the kept one in one field's value alone, with the whole body at hand;
     * else {@code null}. RFC 9112, section 5: the value is the line's text after the colon without the spaces and
     * tabs around it, as Netty reads it.
     */
    private HttpRequest varied(ByteBuf buffer, int from, int readable) {
        int differs = firstDifference(buffer, from, Math.min(bytes.writerIndex(), readable));
        int line = lineOf(differs);
        if (line < 0) {
            return null;
        }
        int keptEnd = lineEnds[line];
        int limit = from + Math.min(readable, maxHeaderSize);
        if (from + differs >= limit) {
            return null; // Past the limit (and indexOf would search backwards).
        }
        int end = buffer.indexOf(from + differs, limit, (byte) '\n');
        if (end < 0 || buffer.getByte(end - 1) != '\r') {
            return null;
        }
        int rest = bytes.writerIndex() - keptEnd - 1;
        int length = end + 1 - from + rest;
        if (length > maxHeaderSize
                || readable < length + bodyLength
                || !ByteBufUtil.equals(buffer, end + 1, bytes, keptEnd + 1, rest)) {
            return null;
        }
        String value = value(buffer, from + colons[line] + 1, end - 1);
        if (value == null) {
            return null;
        }
        matchedLength = length;
        return new DefaultHttpRequest(
                request.protocolVersion(),
                request.method(),
                request.uri(),
                ReceivedFields.of(request.headers()).withValue(line, value));
    }

    /** Where {@code buffer}'s bytes from {@code from} first differ from the kept head's, within {@code limit}. */
    private int firstDifference(ByteBuf buffer, int from, int limit) {
        int at = 0;
        while (at + Long.BYTES <= limit && buffer.getLong(from + at) == bytes.getLong(at)) {
            at += Long.BYTES;
        }
        while (at < limit && buffer.getByte(from + at) == bytes.getByte(at)) {
            at++;
        }
        return at;
    }

    /** The variable field line whose value holds {@code at} (its CR included), or -1. */
    private int lineOf(int at) {
        for (int i = 0; i < colons.length; i++) {
            if (at < lineEnds[i]) {
                return at > colons[i] && (variable & (1L << i)) != 0 ? i : -1;
            }
        }
        return -1;
    }

    /** The trimmed value between {@code from} and {@code to}, or {@code null} when a byte is not one a value is sent with. */
    private static String value(ByteBuf buffer, int from, int to) {
        while (from < to && isBlank(buffer.getByte(from))) {
            from++;
        }
        while (to > from && isBlank(buffer.getByte(to - 1))) {
            to--;
        }
        for (int i = from; i < to; i++) {
            byte b = buffer.getByte(i);
            if ((b < 0x21 || b > 0x7e) && !isBlank(b)) {
                return null;
            }
        }
        return buffer.toString(from, to - from, StandardCharsets.US_ASCII);
    }

    private static boolean isBlank(byte b) {
        return b == ' ' || b == '\t';
    }

    /**
     * Finds the kept head's field lines, in the order of its fields: a head whose fields Netty reordered (it moves a
     * Content-Length it rewrote to the end), or with more than 64 fields, may not vary.
     */
    private void mapLines(ReceivedFields fields) {
        colons = null;
        lineEnds = null;
        int count = fields.size();
        if (count > Long.SIZE) {
            return;
        }
        int[] colonAt = new int[count];
        int[] endAt = new int[count];
        long varies = 0;
        int at = bytes.indexOf(0, bytes.writerIndex(), (byte) '\n') + 1;
        Iterator<Entry<CharSequence, CharSequence>> each = fields.iteratorCharSequence();
        for (int i = 0; i < count; i++) {
            CharSequence name = each.next().getKey();
            int colon = at + name.length();
            int end = bytes.indexOf(at, bytes.writerIndex(), (byte) '\n');
            if (end < 0 || colon >= end || bytes.getByte(colon) != ':' || !spelt(at, name)) {
                return;
            }
            colonAt[i] = colon;
            endAt[i] = end;
            if (!isFraming(name)) {
                varies |= 1L << i;
            }
            at = end + 1;
        }
        colons = colonAt;
        lineEnds = endAt;
        variable = varies;
    }

    private boolean spelt(int at, CharSequence name) {
        for (int i = 0; i < name.length(); i++) {
            if (bytes.getByte(at + i) != name.charAt(i)) {
                return false;
            }
        }
        return true;
    }

    private static boolean isFraming(CharSequence name) {
        return AsciiString.contentEqualsIgnoreCase(name, HttpHeaderNames.CONTENT_LENGTH)
                || AsciiString.contentEqualsIgnoreCase(name, HttpHeaderNames.TRANSFER_ENCODING)
                || AsciiString.contentEqualsIgnoreCase(name, HttpHeaderNames.CONNECTION)
                || AsciiString.contentEqualsIgnoreCase(name, HttpHeaderNames.UPGRADE)
                || AsciiString.contentEqualsIgnoreCase(name, HttpHeaderNames.EXPECT);
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
