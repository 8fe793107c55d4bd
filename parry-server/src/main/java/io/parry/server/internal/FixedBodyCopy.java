package io.parry.server.internal;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.ByteBufAllocator;
import io.parry.http.HttpData;
import io.parry.transport.spi.DataBuffers;

/**
 * An HTTP/2 connection's copy, in direct memory, of the last small fixed body it wrote: a response
 * built once and sent to every request (a constant {@code HttpResponse}) is then copied once per
 * connection instead of once per stream.
 *
 * <p>A heap buffer written to the socket (epoll) or to OpenSSL is copied into a direct one on the
 * way, through four NIO views; the HTTP/1.1 encoder copies a small body into the buffer of its head
 * anyway, but the HTTP/2 frame writer writes each DATA payload as a buffer of its own. One body is
 * kept, by identity (chunks are immutable), so a connection alternating between two bodies does no
 * worse than the copy it replaces. Used on the connection's event loop only.
 */
final class FixedBodyCopy {
    /** Larger bodies are rarely constants, and their copy would hold more direct memory per connection. */
    static final int MAX_BYTES = 1024;

    private HttpData data;
    private ByteBuf copy;
    private boolean released;

    /** A buffer with {@code body}'s bytes, for the caller to write and release. */
    ByteBuf of(HttpData body, ByteBufAllocator allocator) {
        if (body != data) {
            if (released || body.length() > MAX_BYTES) {
                return DataBuffers.wrap(body);
            }
            keep(body, allocator);
        }
        return copy.retainedDuplicate();
    }

    private void keep(HttpData body, ByteBufAllocator allocator) {
        ByteBuf next = allocator.directBuffer(body.length());
        body.read((bytes, offset, length) -> next.writeBytes(bytes, offset, length));
        if (copy != null) {
            copy.release();
        }
        copy = next;
        data = body;
    }

    /** The connection ended: the copy is freed, and later bodies are wrapped as they are. */
    void release() {
        released = true;
        data = null;
        if (copy != null) {
            copy.release();
            copy = null;
        }
    }
}
