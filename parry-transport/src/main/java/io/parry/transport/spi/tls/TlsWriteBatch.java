package io.parry.transport.spi.tls;

import io.netty.buffer.ByteBuf;
import io.netty.channel.ChannelDuplexHandler;
import io.netty.channel.ChannelFuture;
import io.netty.channel.ChannelFutureListener;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelPromise;
import io.netty.handler.ssl.ReferenceCountedOpenSslEngine;
import io.netty.handler.ssl.SslHandler;
import java.nio.channels.ClosedChannelException;
import java.util.Arrays;

/**
 * Sits in front of an OpenSSL {@code SslHandler} and hands it the small buffers a connection writes between two
 * flushes as one buffer with one promise. Add it with {@link #addAfter}.
 *
 * <p>The {@code SslHandler} already gathers a flush's buffers into one TLS record (one {@code SSL_write}), but
 * for each buffer it queues, it allocates a listener and adds it to the record's promise, which it notifies when
 * the record is written. An HTTP/2 response is four buffers (two frame headers, a header block, a body), so at 100
 * streams a flush carried 400 listeners: about a tenth of the event loop's Java time over TLS, which cleartext does
 * not pay. This handler copies the buffers into one (the copy the {@code SslHandler} made) and completes their
 * promises in a loop when that one is written.
 *
 * <p>A batch holds at most one TLS record's plaintext (16 KiB, RFC 8446, section 5.1): a write that would take it
 * past that sends the batch on first, and a larger buffer passes through as it is. Anything else than a buffer, a
 * close and a removal of this handler send the batch on too, so order is kept. A batch of one buffer is held in two
 * fields and passed on as it is: the arrays are made for a connection's first flush of two buffers or more, so an
 * HTTP/1.1 connection whose flushes carry one buffer each never holds them while it idles. One per connection; used
 * on its event loop only.
 */
public final class TlsWriteBatch extends ChannelDuplexHandler {
    /** The largest plaintext of one TLS record (RFC 8446, section 5.1; RFC 5246, section 6.2.1). */
    static final int MAX_BYTES = 16 * 1024;

    private static final int INITIAL_CAPACITY = 8;

    /** The batch while it holds one buffer. */
    private ByteBuf lone;

    private ChannelPromise lonePromise;
    /** The batch once it holds two buffers or more. */
    private ByteBuf[] buffers;

    private ChannelPromise[] promises;

    private int count;
    private int bytes;

    /**
     * Adds a batch right after {@code ssl} when its engine is OpenSSL's; the JDK's engine is left with Netty's
     * defaults.
     */
    public static void addAfter(ChannelHandlerContext ssl) {
        if (ssl.handler() instanceof SslHandler handler && handler.engine() instanceof ReferenceCountedOpenSslEngine) {
            ssl.pipeline().addAfter(ssl.name(), "tls-batch", new TlsWriteBatch());
        }
    }

    @Override
    public void write(ChannelHandlerContext ctx, Object msg, ChannelPromise promise) {
        if (!(msg instanceof ByteBuf buffer) || buffer.readableBytes() >= MAX_BYTES) {
            send(ctx);
            ctx.write(msg, promise);
            return;
        }
        if (bytes + buffer.readableBytes() > MAX_BYTES) {
            send(ctx);
        }
        add(buffer, promise);
    }

    @Override
    public void flush(ChannelHandlerContext ctx) {
        send(ctx);
        ctx.flush();
    }

    @Override
    public void close(ChannelHandlerContext ctx, ChannelPromise promise) {
        send(ctx);
        ctx.close(promise);
    }

    @Override
    public void handlerRemoved(ChannelHandlerContext ctx) {
        if (ctx.channel().isActive()) {
            send(ctx);
        } else {
            failAll(new ClosedChannelException());
        }
    }

    private void add(ByteBuf buffer, ChannelPromise promise) {
        if (count == 0) {
            lone = buffer;
            lonePromise = promise;
        } else {
            if (count == 1) {
                moveLoneToArrays();
            } else if (count == buffers.length) {
                buffers = Arrays.copyOf(buffers, count * 2);
                promises = Arrays.copyOf(promises, count * 2);
            }
            buffers[count] = buffer;
            promises[count] = promise;
        }
        count++;
        bytes += buffer.readableBytes();
    }

    private void moveLoneToArrays() {
        if (buffers == null) {
            buffers = new ByteBuf[INITIAL_CAPACITY];
            promises = new ChannelPromise[INITIAL_CAPACITY];
        }
        buffers[0] = lone;
        promises[0] = lonePromise;
        lone = null;
        lonePromise = null;
    }

    /** Writes the batch to the {@code SslHandler}: as it is when it is one buffer, else as one copy. */
    private void send(ChannelHandlerContext ctx) {
        int n = count;
        if (n == 0) {
            return;
        }
        if (n == 1) {
            ByteBuf only = lone;
            ChannelPromise promise = lonePromise;
            clear();
            ctx.write(only, promise);
            return;
        }
        ByteBuf batch = ctx.alloc().directBuffer(bytes);
        ChannelPromise[] waiting = null;
        int waitingCount = 0;
        for (int i = 0; i < n; i++) {
            ByteBuf buffer = buffers[i];
            copy(buffer, batch);
            buffer.release();
            ChannelPromise promise = promises[i];
            if (!promise.isVoid()) {
                if (waiting == null) {
                    waiting = new ChannelPromise[n - i];
                }
                waiting[waitingCount++] = promise;
            }
        }
        clear();
        if (waiting == null) {
            ctx.write(batch, ctx.voidPromise());
        } else {
            ctx.write(batch).addListener(new Completion(waiting, waitingCount));
        }
    }

    /**
     * Appends {@code source}'s readable bytes to {@code batch}, copied from the source's side: the pooled batch's
     * own {@code writeBytes} copies a source not of its kind (a slice, a composite) through a new NIO view of
     * itself per buffer, where the source's {@code getBytes} copies memory directly.
     */
    private static void copy(ByteBuf source, ByteBuf batch) {
        int at = batch.writerIndex();
        int length = source.readableBytes();
        source.getBytes(source.readerIndex(), batch, at, length);
        batch.writerIndex(at + length);
    }

    private void clear() {
        if (count == 1) {
            lone = null;
            lonePromise = null;
        } else {
            Arrays.fill(buffers, 0, count, null);
            Arrays.fill(promises, 0, count, null);
        }
        count = 0;
        bytes = 0;
    }

    private void failAll(Throwable cause) {
        if (count == 1) {
            moveLoneToArrays();
        }
        for (int i = 0; i < count; i++) {
            buffers[i].release();
            if (!promises[i].isVoid()) {
                promises[i].tryFailure(cause);
            }
        }
        if (count > 0) {
            clear();
        }
    }

    /** Completes the promises of a batch's buffers, in the order they were written, as the batch's write did. */
    private record Completion(ChannelPromise[] promises, int count) implements ChannelFutureListener {
        @Override
        public void operationComplete(ChannelFuture future) {
            Throwable cause = future.cause();
            for (int i = 0; i < count; i++) {
                if (cause == null) {
                    promises[i].trySuccess();
                } else {
                    promises[i].tryFailure(cause);
                }
            }
        }
    }
}
