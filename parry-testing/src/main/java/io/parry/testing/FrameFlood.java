package io.parry.testing;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.SelectionKey;
import java.nio.channels.Selector;
import java.nio.channels.SocketChannel;
import java.time.Duration;
import java.util.function.LongConsumer;

/**
 * Writes the same WebSocket frames on a raw socket again and again and never reads: a hostile peer, for tests that
 * the side it floods stops reading it instead of queueing what its frames cause (a pong per ping, a relayed frame).
 *
 * <pre>{@code
 * long sent = FrameFlood.write(channel, FrameFlood.pings(true), 128L << 20, Duration.ofSeconds(1), total -> {});
 * assertThat(sent).isLessThan(32L << 20); // the peer stopped taking them
 * }</pre>
 *
 * <p>Called on the test thread; it blocks until the flood ends.
 */
public final class FrameFlood {
    /** The opcode of a binary frame (RFC 6455, section 5.2). */
    public static final int BINARY = 2;
    /** The opcode of a ping frame (RFC 6455, section 5.2). */
    public static final int PING = 9;

    private static final int FRAMES_SIZE = 64 * 1024;

    private FrameFlood() {}

    /** About 64 KiB of pings with 8 bytes of data each, as {@link #frames}. */
    public static ByteBuffer pings(boolean masked) {
        return frames(PING, 8, masked);
    }

    /**
     * About 64 KiB of whole frames with this opcode and {@code payload} bytes of zeros each (0 to 125): masked with a
     * zero key as a client's must be (RFC 6455, section 5.3), so the data goes as it is, or unmasked as a server's.
     */
    public static ByteBuffer frames(int opcode, int payload, boolean masked) {
        if (payload < 0 || payload > 125) {
            throw new IllegalArgumentException("payload: " + payload + " (expected: 0 to 125)");
        }
        int size = 2 + (masked ? 4 : 0) + payload;
        ByteBuffer frames = ByteBuffer.allocate(FRAMES_SIZE / size * size);
        while (frames.hasRemaining()) {
            frames.put((byte) (0x80 | opcode)).put((byte) ((masked ? 0x80 : 0) | payload));
            if (masked) {
                frames.putInt(0);
            }
            frames.position(frames.position() + payload);
        }
        return frames.flip();
    }

    /**
     * Writes {@code frames} over and over until {@code limit} bytes went or the socket took nothing for {@code
     * stall}, then returns the bytes written. After each write {@code afterWrite} gets the bytes written so far, to
     * look at the flooded side meanwhile. The channel is left non-blocking.
     */
    public static long write(
            SocketChannel channel, ByteBuffer frames, long limit, Duration stall, LongConsumer afterWrite)
            throws IOException {
        channel.configureBlocking(false);
        ByteBuffer next = frames.duplicate();
        long sent = 0;
        try (Selector selector = Selector.open()) {
            channel.register(selector, SelectionKey.OP_WRITE);
            while (sent < limit && selector.select(stall.toMillis()) > 0) {
                selector.selectedKeys().clear();
                if (!next.hasRemaining()) {
                    next.rewind();
                }
                sent += channel.write(next);
                afterWrite.accept(sent);
            }
        }
        return sent;
    }
}
