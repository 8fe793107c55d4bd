package io.parry.json.internal;

import io.parry.http.HttpData;
import java.io.IOException;
import java.io.OutputStream;
import java.io.UncheckedIOException;
import java.util.Arrays;

/**
 * The bytes of an {@link HttpData} as an array slice, without a copy. {@code HttpData} shows its
 * bytes only as a read-only buffer (whose array is hidden) or as a copy, but {@link
 * HttpData#writeTo(OutputStream)} hands its backing array to {@link #write(byte[], int, int)}; the
 * slice keeps that reference so Jackson parses the aggregated body in place. Nothing writes to it.
 */
final class ByteSlice extends OutputStream {
    private static final byte[] NO_BYTES = new byte[0];

    byte[] array = NO_BYTES;
    int offset;
    int length;
    private boolean captured;

    static ByteSlice of(HttpData data) {
        ByteSlice slice = new ByteSlice();
        try {
            data.writeTo(slice);
        } catch (IOException e) {
            throw new UncheckedIOException(e); // never: this stream does no I/O
        }
        return slice;
    }

    @Override
    public void write(byte[] bytes, int off, int len) {
        if (!captured) {
            captured = true;
            array = bytes;
            offset = off;
            length = len;
            return;
        }
        // Only if HttpData ever writes in several pieces: fall back to copying.
        byte[] joined = Arrays.copyOfRange(array, offset, offset + length + len);
        System.arraycopy(bytes, off, joined, length, len);
        array = joined;
        offset = 0;
        length = joined.length;
    }

    @Override
    public void write(int b) {
        write(new byte[] {(byte) b}, 0, 1);
    }
}
