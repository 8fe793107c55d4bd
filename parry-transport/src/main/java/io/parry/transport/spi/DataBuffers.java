package io.parry.transport.spi;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.Unpooled;
import io.parry.http.HttpData;

/**
 * Netty buffers over Parry's immutable chunks, for writing them to a channel without a copy.
 *
 * <p>The buffer shares the chunk's array: it is one heap buffer (two objects), where wrapping {@link
 * HttpData#asByteBuffer()} builds four NIO views and a read-only Netty buffer for every write. The
 * framework only reads it (encoders, frame writers and TLS copy from it), so the chunk stays as it was.
 */
public final class DataBuffers {
    private static final HttpData.BytesReader<ByteBuf, RuntimeException> WRAP = Unpooled::wrappedBuffer;

    private DataBuffers() {}

    /** A buffer over {@code data}'s bytes, to be read and released, never written. */
    public static ByteBuf wrap(HttpData data) {
        return data.read(WRAP);
    }
}
