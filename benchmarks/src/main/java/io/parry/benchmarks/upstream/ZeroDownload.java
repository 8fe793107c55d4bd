package io.parry.benchmarks.upstream;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.Unpooled;
import io.netty.channel.ChannelFuture;
import io.netty.channel.ChannelHandlerContext;
import io.netty.handler.codec.http.DefaultHttpContent;
import io.netty.handler.codec.http.LastHttpContent;

/**
 * The body of one download: a number of zero bytes, written in chunks only while the channel is writable.
 *
 * <p>Confined to the connection's event loop. Every chunk is a slice of one shared, never-released buffer of zeros,
 * so a download allocates no body memory and the bytes in flight are bounded by the channel's write-buffer high
 * water mark plus one chunk.
 */
final class ZeroDownload {
    private static final int CHUNK_SIZE = 64 * 1024;

    private static final ByteBuf ZEROS =
            Unpooled.unreleasableBuffer(Unpooled.directBuffer(CHUNK_SIZE).writeZero(CHUNK_SIZE));

    private long remaining;

    ZeroDownload(long bytes) {
        remaining = bytes;
    }

    /**
     * Writes chunks while the channel is writable and flushes them; returns the future of the last write once the
     * whole body has been written, or {@code null} while some remains for the next writability change.
     */
    ChannelFuture resume(ChannelHandlerContext ctx) {
        while (remaining > 0 && ctx.channel().isWritable()) {
            int size = (int) Math.min(remaining, CHUNK_SIZE);
            remaining -= size;
            ctx.write(new DefaultHttpContent(ZEROS.retainedSlice(0, size)));
        }
        if (remaining > 0) {
            ctx.flush();
            return null;
        }
        return ctx.writeAndFlush(LastHttpContent.EMPTY_LAST_CONTENT);
    }
}
