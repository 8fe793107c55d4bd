package io.parry.benchmarks.socketless;

import java.io.ByteArrayOutputStream;
import java.nio.charset.StandardCharsets;

/**
 * A client's h2c frames: the connection preface with a connection window opened as far as it goes,
 * then one HEADERS frame (END_STREAM) per request on the next odd stream. As h2load does, the first
 * header block adds {@code :path} and {@code :authority} to the HPACK dynamic table and every later one
 * names them by index (RFC 7541, sections 6.1 and 6.2.1).
 */
final class Http2Requests {
    private final byte[] first;
    private final byte[] indexed;
    private int streamId = 1;

    Http2Requests(String path) {
        first = frame(firstBlock(path));
        // Dynamic table after the first block: :authority at 62 (newest), :path at 63.
        indexed = frame(new byte[] {(byte) 0x82, (byte) 0x86, (byte) (0x80 | 63), (byte) (0x80 | 62)});
    }

    /** The HEADERS frames of the next {@code count} request streams, back to back, as one read delivers them. */
    byte[] next(int count) {
        if (count == 1) {
            return next();
        }
        ByteArrayOutputStream frames = new ByteArrayOutputStream();
        for (int i = 0; i < count; i++) {
            frames.writeBytes(next());
        }
        return frames.toByteArray();
    }

    byte[] next() {
        byte[] frame = streamId == 1 ? first : indexed;
        frame[5] = (byte) (streamId >>> 24);
        frame[6] = (byte) (streamId >>> 16);
        frame[7] = (byte) (streamId >>> 8);
        frame[8] = (byte) streamId;
        streamId += 2;
        return frame;
    }

    static byte[] connectionStart() {
        byte[] preface = "PRI * HTTP/2.0\r\n\r\nSM\r\n\r\n".getBytes(StandardCharsets.US_ASCII);
        int increment = Integer.MAX_VALUE - 65_535;
        byte[] frames = {
            0,
            0,
            0,
            0x4,
            0,
            0,
            0,
            0,
            0, // SETTINGS, empty
            0,
            0,
            0,
            0x4,
            0x1,
            0,
            0,
            0,
            0, // SETTINGS ack of the server's
            0,
            0,
            4,
            0x8,
            0,
            0,
            0,
            0,
            0, // WINDOW_UPDATE, connection
            (byte) (increment >>> 24),
            (byte) (increment >>> 16),
            (byte) (increment >>> 8),
            (byte) increment
        };
        byte[] all = new byte[preface.length + frames.length];
        System.arraycopy(preface, 0, all, 0, preface.length);
        System.arraycopy(frames, 0, all, preface.length, frames.length);
        return all;
    }

    private static byte[] frame(byte[] block) {
        byte[] frame = new byte[9 + block.length];
        frame[0] = (byte) (block.length >>> 16);
        frame[1] = (byte) (block.length >>> 8);
        frame[2] = (byte) block.length;
        frame[3] = 0x1; // HEADERS
        frame[4] = 0x5; // END_STREAM | END_HEADERS
        System.arraycopy(block, 0, frame, 9, block.length);
        return frame;
    }

    private static byte[] firstBlock(String path) {
        ByteArrayOutputStream block = new ByteArrayOutputStream();
        block.write(0x82); // :method GET (static table 2)
        block.write(0x86); // :scheme http (static table 6)
        literal(block, 4, path); // :path
        literal(block, 1, "127.0.0.1:8080"); // :authority
        return block.toByteArray();
    }

    private static void literal(ByteArrayOutputStream block, int nameIndex, String value) {
        byte[] bytes = value.getBytes(StandardCharsets.US_ASCII);
        block.write(0x40 | nameIndex); // literal with incremental indexing, indexed name (6-bit prefix)
        block.write(bytes.length); // no Huffman, length < 127
        block.write(bytes, 0, bytes.length);
    }
}
