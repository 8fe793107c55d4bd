package io.parry.client.internal;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.ByteBufAllocator;
import io.netty.buffer.ByteBufUtil;
import io.netty.buffer.Unpooled;
import io.parry.http.HttpHeaders;
import java.nio.charset.StandardCharsets;

/**
 * The chunked transfer coding of a request body of unknown length (RFC 9112, section 7.1): a size
 * line before each chunk, a line end after it, and a last chunk carrying the trailer fields. A chunk
 * itself is written as it is, never copied.
 */
final class ChunkedCoding {
    private static final ByteBuf CRLF = Unpooled.unreleasableBuffer(
                    Unpooled.directBuffer(2).writeByte('\r').writeByte('\n'))
            .asReadOnly();
    private static final ByteBuf LAST_CHUNK = Unpooled.unreleasableBuffer(
                    Unpooled.directBuffer(5).writeBytes("0\r\n\r\n".getBytes(StandardCharsets.US_ASCII)))
            .asReadOnly();

    private ChunkedCoding() {}

    /** The line that announces a chunk of {@code size} bytes, size greater than zero. */
    static ByteBuf sizeLine(ByteBufAllocator alloc, int size) {
        String hex = Integer.toHexString(size);
        ByteBuf line = alloc.ioBuffer(hex.length() + 2);
        ByteBufUtil.writeAscii(line, hex);
        return line.writeByte('\r').writeByte('\n');
    }

    /** The line end after a chunk's data. */
    static ByteBuf chunkEnd() {
        return CRLF.duplicate();
    }

    /** The zero-size chunk that ends the body, with its trailer fields. */
    static ByteBuf lastChunk(ByteBufAllocator alloc, HttpHeaders trailers) {
        if (trailers.isEmpty()) {
            return LAST_CHUNK.duplicate();
        }
        ByteBuf last = alloc.ioBuffer();
        last.writeByte('0').writeByte('\r').writeByte('\n');
        for (int i = 0; i < trailers.size(); i++) {
            ByteBufUtil.writeAscii(last, trailers.name(i));
            last.writeByte(':').writeByte(' ');
            ByteBufUtil.writeAscii(last, trailers.value(i));
            last.writeByte('\r').writeByte('\n');
        }
        return last.writeByte('\r').writeByte('\n');
    }
}
