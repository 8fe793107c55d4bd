package io.parry.protection.internal;

import io.netty.util.concurrent.FastThreadLocal;
import io.netty.util.concurrent.FastThreadLocalThread;
import io.parry.http.HttpData;
import java.util.Arrays;
import java.util.zip.CRC32;
import java.util.zip.Deflater;

/**
 * Compresses a whole body at once. Event-loop threads keep one {@link Deflater} per level and coding
 * and an output array, reset after each use, because a deflater's native state (about 256 KiB) costs
 * more to set up than a small body costs to compress; other threads (workers, virtual threads) make
 * their own and end it at once.
 */
final class Deflation {
    /** A kept output array larger than this would hold memory no typical body needs. */
    private static final int MAX_KEPT_OUTPUT = 256 * 1024;
    /** RFC 1952, section 2.3: magic, CM = 8 (deflate), no flags, no time, XFL = 0, OS = 255 (unknown). */
    static final byte[] GZIP_HEADER = {0x1f, (byte) 0x8b, 8, 0, 0, 0, 0, 0, 0, (byte) 0xff};

    private static final FastThreadLocal<Deflation> LOCAL = new FastThreadLocal<>() {
        @Override
        protected Deflation initialValue() {
            return new Deflation();
        }
    };

    private final Deflater[] deflaters = new Deflater[20];
    private final CRC32 crc = new CRC32();
    private byte[] output = new byte[16 * 1024];

    private Deflation() {}

    /** The data encoded whole as gzip (or deflate) at this level (1 to 9). */
    static HttpData compress(boolean gzip, int level, HttpData data) {
        if (Thread.currentThread() instanceof FastThreadLocalThread) {
            return LOCAL.get().encode(gzip, level, data);
        }
        Deflater deflater = new Deflater(level, gzip);
        try {
            return HttpData.wrap(encode(deflater, new CRC32(), gzip, data, new byte[data.length() / 2 + 64]));
        } finally {
            deflater.end();
        }
    }

    private HttpData encode(boolean gzip, int level, HttpData data) {
        int slot = (level - 1) * 2 + (gzip ? 0 : 1);
        Deflater deflater = deflaters[slot];
        if (deflater == null) {
            deflater = new Deflater(level, gzip);
            deflaters[slot] = deflater;
        }
        int wanted = Math.min(data.length() / 2 + 64, MAX_KEPT_OUTPUT);
        if (output.length < wanted) {
            output = new byte[wanted];
        }
        byte[] encoded = encode(deflater, crc, gzip, data, output);
        deflater.reset();
        crc.reset();
        return HttpData.wrap(encoded);
    }

    /** The encoded bytes, made in {@code out} (or in larger copies of it when it fills up). */
    private static byte[] encode(Deflater deflater, CRC32 crc, boolean gzip, HttpData data, byte[] out) {
        int position = 0;
        if (gzip) {
            System.arraycopy(GZIP_HEADER, 0, out, 0, GZIP_HEADER.length);
            position = GZIP_HEADER.length;
            Checksums.update(crc, data);
        }
        deflater.setInput(data.asByteBuffer());
        deflater.finish();
        while (!deflater.finished()) {
            if (position == out.length) {
                out = Arrays.copyOf(out, out.length * 2);
            }
            position += deflater.deflate(out, position, out.length - position);
        }
        if (gzip) {
            if (out.length - position < 8) {
                out = Arrays.copyOf(out, out.length + 8);
            }
            position = GzipTrailer.write(out, position, crc.getValue(), data.length());
        }
        return Arrays.copyOf(out, position);
    }
}
