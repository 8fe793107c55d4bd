package io.parry.gateway;

import java.io.InputStream;
import java.util.SplittableRandom;
import java.util.zip.CRC32;

/**
 * A deterministic pseudo-random body of a given length, as an input stream that makes its bytes on demand.
 *
 * <p>It repeats a random block whose length is prime, so its period never lines up with buffer or frame sizes and a
 * dropped, repeated or reordered buffer changes the checksum.
 */
final class PatternBody extends InputStream {
    private static final byte[] BLOCK = block();

    private final long length;
    /** Written by the reading thread only; volatile so that another thread may watch the progress. */
    private volatile long position;

    PatternBody(long length) {
        this.length = length;
    }

    /** How many bytes have been read so far; any thread. */
    long position() {
        return position;
    }

    /** The CRC-32 of the first {@code length} bytes of the pattern. */
    static long crc(long length) {
        CRC32 crc = new CRC32();
        byte[] buffer = new byte[64 * 1024];
        try (PatternBody body = new PatternBody(length)) {
            for (int n = body.read(buffer, 0, buffer.length); n > 0; n = body.read(buffer, 0, buffer.length)) {
                crc.update(buffer, 0, n);
            }
        }
        return crc.getValue();
    }

    @Override
    public int read() {
        byte[] one = new byte[1];
        return read(one, 0, 1) < 0 ? -1 : one[0] & 0xff;
    }

    @Override
    public int read(byte[] buffer, int offset, int count) {
        if (position == length) {
            return -1;
        }
        int at = (int) (position % BLOCK.length);
        int n = (int) Math.min(Math.min(count, length - position), BLOCK.length - at);
        System.arraycopy(BLOCK, at, buffer, offset, n);
        position += n;
        return n;
    }

    @Override
    public void close() {}

    private static byte[] block() {
        byte[] block = new byte[1_048_573];
        new SplittableRandom(0x5EED_EC40L).nextBytes(block);
        return block;
    }
}
