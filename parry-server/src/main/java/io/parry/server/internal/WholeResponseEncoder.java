package io.parry.server.internal;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.ByteBufAllocator;
import io.netty.handler.codec.http.HttpHeaderNames;
import io.netty.handler.codec.http.HttpResponseStatus;
import io.netty.util.AsciiString;
import io.netty.util.concurrent.FastThreadLocal;
import io.parry.http.HttpData;
import io.parry.http.HttpHeaders;
import io.parry.http.HttpStatus;

/**
 * Encodes a whole HTTP/1.1 response whose body is at hand (fixed, a buffer that arrived whole, or
 * none) into one buffer: the status line, the header block of {@link ResponseHeaders} and the body,
 * the bytes Netty's {@code HttpResponseEncoder} writes for the same response.
 *
 * <p>Most responses are such, and small: for them Netty's message objects, its header lookups and
 * its writes of one character at a time through a pooled buffer cost more than the bytes. The head
 * is laid out in a scratch array of the thread's first, then head and body are copied into the
 * buffer in two calls. One instance per thread (event loops only use it), reached by {@link #current}.
 */
final class WholeResponseEncoder implements HttpData.BytesReader<Void, RuntimeException> {
    private static final AsciiString HTTP_1_0 = AsciiString.cached("HTTP/1.0 ");
    private static final AsciiString HTTP_1_1 = AsciiString.cached("HTTP/1.1 ");
    /** A head larger than this is laid out in an array of its own, so no thread keeps a big one. */
    private static final int MAX_SCRATCH = 8192;
    /**
     * The largest body in a buffer that is copied behind its head: up to here one copy costs less
     * than a composite buffer's objects and the socket's gathering write of two pieces.
     */
    private static final int MAX_COPY = 4096;

    private static final FastThreadLocal<WholeResponseEncoder> CURRENT = new FastThreadLocal<>() {
        @Override
        protected WholeResponseEncoder initialValue() {
            return new WholeResponseEncoder();
        }
    };

    private byte[] scratch = new byte[512];
    /** The buffer the body is copied into, while {@link #encode} runs. */
    private ByteBuf target;
    /**
     * What the head still in {@link #scratch} was laid out from ({@code headFields} is {@code null} when it holds
     * none): the same response sent again in the same second (a constant one, by far the usual) has the same
     * bytes, which are copied rather than laid out again. The statuses, framing values and dates are shared
     * constants, compared by identity; the fields are immutable, compared by identity first, then by their text
     * ({@link #isLaidOut}).
     */
    private HttpHeaders headFields;

    private HttpResponseStatus headStatus;
    private CharSequence headFramingName;
    private CharSequence headFramingValue;
    private CharSequence headConnection;
    private boolean headHttp10;
    /** The Date value the head carries, or {@code null} when the response's fields have their own. */
    private AsciiString headDate;

    private int headSize;

    private WholeResponseEncoder() {}

    static WholeResponseEncoder current() {
        return CURRENT.get();
    }

    /**
     * Whether Netty's encoder would send this status's header block as it is given: it strips the
     * framing fields of 1xx, 204 and 205 responses, which therefore take the encoder's path.
     */
    static boolean encodes(HttpStatus status) {
        int code = status.code();
        return code >= 200 && code != 204 && code != 205;
    }

    /**
     * The response as one buffer, for the caller to write and the channel to release. A body in a
     * buffer is the callee's to release: one up to {@value #MAX_COPY} bytes is copied behind the head,
     * a larger one is not copied but joined to it in a composite buffer.
     *
     * @param date the {@code Date} value, sent unless the fields have their own
     * @param data a body to send, or {@code null}
     * @param buffer a body to send, or {@code null}: an echo's, a proxied response's
     */
    ByteBuf encode(
            ByteBufAllocator alloc,
            boolean http10,
            HttpResponseStatus status,
            HttpHeaders fields,
            CharSequence framingName,
            CharSequence framingValue,
            CharSequence connection,
            AsciiString date,
            HttpData data,
            ByteBuf buffer) {
        int bodySize = buffer != null ? buffer.readableBytes() : data != null ? data.length() : 0;
        boolean joined = buffer != null && bodySize > MAX_COPY;
        ByteBuf out =
                head(alloc, joined ? 0 : bodySize, http10, status, fields, framingName, framingValue, connection, date);
        if (joined) {
            return alloc.compositeDirectBuffer(2).addComponents(true, out, buffer);
        }
        if (buffer != null) {
            try {
                return copy(buffer, out, bodySize);
            } finally {
                buffer.release();
            }
        }
        if (bodySize > 0) {
            target = out;
            try {
                data.read(this);
            } finally {
                target = null;
            }
        }
        return out;
    }

    /**
     * Copies the body behind the head from the body's side: the pooled target's own {@code writeBytes} copies a
     * source that is not of its kind (the decoder's slice of a read, an echo's body) through a new NIO view of
     * itself, an object and a method-handle call per response, where the source's {@code getBytes} copies memory
     * directly.
     */
    private static ByteBuf copy(ByteBuf body, ByteBuf out, int size) {
        int at = out.writerIndex();
        body.getBytes(body.readerIndex(), out, at, size);
        return out.writerIndex(at + size);
    }

    /** A buffer holding the head, with room for {@code bodySize} more bytes. */
    private ByteBuf head(
            ByteBufAllocator alloc,
            int bodySize,
            boolean http10,
            HttpResponseStatus status,
            HttpHeaders fields,
            CharSequence framingName,
            CharSequence framingValue,
            CharSequence connection,
            AsciiString date) {
        if (status == headStatus
                && framingName == headFramingName
                && framingValue == headFramingValue
                && connection == headConnection
                && http10 == headHttp10
                && (headDate == null || headDate == date)
                && isLaidOut(fields)) {
            return alloc.ioBuffer(headSize + bodySize).writeBytes(scratch, 0, headSize);
        }
        boolean hasDate = false;
        int size = HTTP_1_1.length()
                + status.codeAsText().length()
                + 1
                + status.reasonPhrase().length()
                + 2;
        for (int i = 0; i < fields.size(); i++) {
            String name = fields.name(i);
            if (ResponseHeaders.keeps(name, connection)) {
                size += fieldSize(name, fields.value(i));
                hasDate |= ResponseHeaders.isDate(name);
            }
        }
        if (hasDate) {
            date = null;
        } else {
            size += fieldSize(HttpHeaderNames.DATE, date);
        }
        if (framingName != null) {
            size += fieldSize(framingName, framingValue);
        }
        if (connection != null) {
            size += fieldSize(HttpHeaderNames.CONNECTION, connection);
        }
        size += 2;
        byte[] head =
                size <= scratch.length ? scratch : size <= MAX_SCRATCH ? (scratch = new byte[size]) : new byte[size];
        int at = put(head, 0, http10 ? HTTP_1_0 : HTTP_1_1);
        at = put(head, at, status.codeAsText());
        head[at++] = ' ';
        at = crlf(head, put(head, at, status.reasonPhrase()));
        for (int i = 0; i < fields.size(); i++) {
            String name = fields.name(i);
            if (ResponseHeaders.keeps(name, connection)) {
                at = putField(head, at, name, fields.value(i));
            }
        }
        if (date != null) {
            at = putField(head, at, HttpHeaderNames.DATE, date);
        }
        if (framingName != null) {
            at = putField(head, at, framingName, framingValue);
        }
        if (connection != null) {
            at = putField(head, at, HttpHeaderNames.CONNECTION, connection);
        }
        crlf(head, at);
        remember(head == scratch ? fields : null, status, framingName, framingValue, connection, http10, date, size);
        return alloc.ioBuffer(size + bodySize).writeBytes(head, 0, size);
    }

    /**
     * Whether the head in {@link #scratch} was laid out from these fields: the same object, or fields spelt the
     * same, in the same order (a handler that copies a request's field into each response, as an echo does, makes
     * equal fields each time). Names are compared exactly, not ignoring case: the head holds them as spelt.
     */
    private boolean isLaidOut(HttpHeaders fields) {
        HttpHeaders laidOut = headFields;
        if (fields == laidOut) {
            return true;
        }
        if (laidOut == null || fields.size() != laidOut.size()) {
            return false;
        }
        for (int i = 0; i < fields.size(); i++) {
            if (!fields.value(i).equals(laidOut.value(i)) || !fields.name(i).equals(laidOut.name(i))) {
                return false;
            }
        }
        return true;
    }

    private void remember(
            HttpHeaders fields,
            HttpResponseStatus status,
            CharSequence framingName,
            CharSequence framingValue,
            CharSequence connection,
            boolean http10,
            AsciiString date,
            int size) {
        headFields = fields;
        headStatus = status;
        headFramingName = framingName;
        headFramingValue = framingValue;
        headConnection = connection;
        headHttp10 = http10;
        headDate = date;
        headSize = size;
    }

    /** Copies the body into the buffer being made. */
    @Override
    public Void read(byte[] bytes, int offset, int length) {
        target.writeBytes(bytes, offset, length);
        return null;
    }

    private static int fieldSize(CharSequence name, CharSequence value) {
        return name.length() + 2 + value.length() + 2;
    }

    private static int putField(byte[] head, int at, CharSequence name, CharSequence value) {
        at = put(head, at, name);
        head[at++] = ':';
        head[at++] = ' ';
        return crlf(head, put(head, at, value));
    }

    private static int crlf(byte[] head, int at) {
        head[at] = '\r';
        head[at + 1] = '\n';
        return at + 2;
    }

    /**
     * Copies ASCII text; a field's characters are all below 256, as Parry's headers validate them, so
     * each is one byte (Netty's encoder writes the same low byte).
     */
    private static int put(byte[] head, int at, CharSequence text) {
        int length = text.length();
        if (text instanceof AsciiString ascii) {
            System.arraycopy(ascii.array(), ascii.arrayOffset(), head, at, length);
            return at + length;
        }
        for (int i = 0; i < length; i++) {
            head[at + i] = (byte) text.charAt(i);
        }
        return at + length;
    }
}
