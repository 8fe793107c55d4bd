package io.parry.server.websocket;

import io.netty.buffer.ByteBuf;
import io.parry.http.HttpData;

/**
 * The frames of one message, joined into one heap array that doubles as it fills; its size is checked
 * against the message limit before each frame is added, so it never grows past it.
 */
final class MessageBuffer {
    private static final byte[] NONE = new byte[0];

    /** Empty between messages, so an idle session holds no array. */
    private byte[] bytes = NONE;

    private int length;

    void append(ByteBuf frame) {
        int size = frame.readableBytes();
        if (length + size > bytes.length) {
            int doubled = (int) Math.min(2L * bytes.length, Integer.MAX_VALUE - 8);
            byte[] larger = new byte[Math.max(Math.max(length + size, doubled), 256)];
            System.arraycopy(bytes, 0, larger, 0, length);
            bytes = larger;
        }
        frame.getBytes(frame.readerIndex(), bytes, length, size);
        length += size;
    }

    void clear() {
        bytes = NONE;
        length = 0;
    }

    /** The message so far, without a copy; the buffer starts afresh. */
    HttpData take() {
        HttpData data = HttpData.wrap(bytes, 0, length);
        bytes = NONE;
        length = 0;
        return data;
    }

    static HttpData copy(ByteBuf frame) {
        byte[] data = new byte[frame.readableBytes()];
        frame.getBytes(frame.readerIndex(), data);
        return HttpData.wrap(data);
    }
}
