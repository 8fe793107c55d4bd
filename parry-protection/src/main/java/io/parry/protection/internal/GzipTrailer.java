package io.parry.protection.internal;

/** The eight bytes that end a gzip member: CRC-32 and size modulo 2^32, little-endian (RFC 1952, 2.3.1). */
final class GzipTrailer {
    static final int LENGTH = 8;

    private GzipTrailer() {}

    /** Writes the trailer at {@code position}; returns the position after it. */
    static int write(byte[] out, int position, long crc, long size) {
        writeInt(out, position, crc);
        writeInt(out, position + 4, size);
        return position + LENGTH;
    }

    /** The little-endian unsigned 32-bit value at {@code position}. */
    static long readInt(byte[] in, int position) {
        return (in[position] & 0xffL)
                | (in[position + 1] & 0xffL) << 8
                | (in[position + 2] & 0xffL) << 16
                | (in[position + 3] & 0xffL) << 24;
    }

    private static void writeInt(byte[] out, int position, long value) {
        out[position] = (byte) value;
        out[position + 1] = (byte) (value >>> 8);
        out[position + 2] = (byte) (value >>> 16);
        out[position + 3] = (byte) (value >>> 24);
    }
}
