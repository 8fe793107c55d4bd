package io.parry.benchmarks.socketless;

import java.io.ByteArrayOutputStream;
import java.nio.charset.StandardCharsets;

/**
 * A client's h2c frames as h2load (nghttp2 1.52) sends them for {@code GET /plaintext}: the connection preface with
 * a connection window opened as far as it goes, then one HEADERS frame (END_STREAM) per request on the next odd
 * stream. The header blocks are h2load's bytes, captured from its socket: the first adds {@code :authority} and
 * {@code user-agent} to the HPACK dynamic table and every later one names them by index (RFC 7541, sections 6.1 and
 * 6.2.1), while {@code :path} comes each time as a Huffman-coded literal without indexing (section 6.2.2), as nghttp2
 * never indexes it.
 */
final class Http2Requests {
    /** {@code :path /plaintext} (literal, not indexed, Huffman), :scheme http, :authority, :method GET, user-agent. */
    private static final byte[] FIRST_BLOCK =
            bytes("0487 62ba066a925f29 86 418b 089d5c0b8170dc659680df 82 7a8f 9c541c722954d3a5358980aed89707");
    /** {@code :path} as before, :scheme http, :authority (dynamic 63), :method GET, user-agent (dynamic 62). */
    private static final byte[] LATER_BLOCK = bytes("0487 62ba066a925f29 86 bf 82 be");

    private final byte[] first = frame(FIRST_BLOCK);
    private final byte[] later = frame(LATER_BLOCK);
    private int streamId = 1;

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

    /** The HEADERS frame of the next request stream, the first one ever adding to HPACK's table. */
    byte[] next() {
        byte[] frame = streamId == 1 ? first : later;
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

    private static byte[] bytes(String hex) {
        String digits = hex.replace(" ", "");
        byte[] bytes = new byte[digits.length() / 2];
        for (int i = 0; i < bytes.length; i++) {
            bytes[i] = (byte) Integer.parseInt(digits.substring(2 * i, 2 * i + 2), 16);
        }
        return bytes;
    }
}
