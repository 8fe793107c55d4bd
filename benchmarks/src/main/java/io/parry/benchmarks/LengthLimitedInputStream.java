package io.parry.benchmarks;

import java.io.EOFException;
import java.io.IOException;
import java.io.InputStream;

/** A view of the next {@code length} bytes of a stream: a body framed by {@code Content-Length}. */
final class LengthLimitedInputStream extends InputStream {
    private final InputStream in;
    private long remaining;

    LengthLimitedInputStream(InputStream in, long length) {
        this.in = in;
        this.remaining = length;
    }

    @Override
    public int read() throws IOException {
        byte[] one = new byte[1];
        return read(one, 0, 1) < 0 ? -1 : one[0] & 0xFF;
    }

    @Override
    public int read(byte[] buffer, int offset, int length) throws IOException {
        if (remaining == 0) {
            return -1;
        }
        int n = in.read(buffer, offset, (int) Math.min(length, remaining));
        if (n < 0) {
            throw new EOFException("connection closed with " + remaining + " body bytes still expected");
        }
        remaining -= n;
        return n;
    }
}
