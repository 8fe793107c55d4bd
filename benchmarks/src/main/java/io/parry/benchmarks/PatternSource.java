package io.parry.benchmarks;

import java.io.IOException;
import java.io.OutputStream;
import java.util.Arrays;
import java.util.SplittableRandom;
import java.util.zip.CRC32;

/**
 * An endless, deterministic, pseudo-random byte stream, written in large slices so producing it costs little.
 *
 * <p>The stream repeats a random block whose length is prime, so its period never lines up with buffer sizes and a
 * dropped, repeated or reordered buffer changes the checksum.
 */
final class PatternSource {
    private static final int PERIOD = 1_048_573;
    private static final int SLICE = 64 * 1024;

    /** One period followed by one slice of its own start, so any slice can be written without wrapping. */
    private final byte[] block;

    private long position;

    PatternSource(long seed) {
        byte[] period = new byte[PERIOD];
        new SplittableRandom(seed).nextBytes(period);
        block = Arrays.copyOf(period, PERIOD + SLICE);
        System.arraycopy(period, 0, block, PERIOD, SLICE);
    }

    /** Writes the next {@code size} bytes of the stream to {@code out}, adding them to {@code crc}. */
    void writeTo(OutputStream out, long size, CRC32 crc) throws IOException {
        long remaining = size;
        while (remaining > 0) {
            int offset = (int) (position % PERIOD);
            int length = (int) Math.min(SLICE, remaining);
            out.write(block, offset, length);
            crc.update(block, offset, length);
            position += length;
            remaining -= length;
        }
    }
}
