package io.parry.proxy.internal;

import io.netty.buffer.ByteBuf;

/**
 * Reads a WebSocket frame's header where it lies in a buffer (RFC 6455, section 5.2): the relay keeps
 * frames as the bytes that came, header included, and looks into them only for what it must know.
 */
final class RelayFrames {
    private RelayFrames() {}

    /** The frame's opcode: 0 continuation, 1 text, 2 binary, 8 close, 9 ping, 10 pong. */
    static int opcode(ByteBuf frame) {
        return frame.getByte(frame.readerIndex()) & 0x0F;
    }

    /** The header's length, mask key included, from its second byte. */
    static int headerLength(int second) {
        int length = second & 0x7F;
        int extended = length == 126 ? 2 : length == 127 ? 8 : 0;
        return 2 + extended + ((second & 0x80) != 0 ? 4 : 0);
    }

    /** The payload's length, from a header starting at {@code start} and whole in the buffer. */
    static long payloadLength(ByteBuf buffer, int start) {
        int length = buffer.getByte(start + 1) & 0x7F;
        if (length == 126) {
            return buffer.getUnsignedShort(start + 2);
        }
        return length == 127 ? buffer.getLong(start + 2) : length;
    }

    /** Whether the length was written in the fewest bytes, as section 5.2 requires (and not negative). */
    static boolean isMinimalLength(int second, long length) {
        int written = second & 0x7F;
        return written < 126 || (written == 126 ? length >= 126 : length > 0xFFFF);
    }
}
