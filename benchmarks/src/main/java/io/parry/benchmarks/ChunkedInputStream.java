package io.parry.benchmarks;

import java.io.EOFException;
import java.io.IOException;
import java.io.InputStream;

/**
 * Decodes the chunked transfer coding (RFC 9112 section 7.1) from a response stream, ending at the last chunk.
 *
 * <p>Chunk extensions and trailer fields are read and dropped. The underlying stream is left positioned after the
 * message, so the connection can carry another one.
 */
final class ChunkedInputStream extends InputStream {
    private final InputStream in;
    private long remaining;
    private boolean started;
    private boolean finished;

    ChunkedInputStream(InputStream in) {
        this.in = in;
    }

    @Override
    public int read() throws IOException {
        byte[] one = new byte[1];
        return read(one, 0, 1) < 0 ? -1 : one[0] & 0xFF;
    }

    @Override
    public int read(byte[] buffer, int offset, int length) throws IOException {
        if (remaining == 0 && !finished) {
            nextChunk();
        }
        if (finished) {
            return -1;
        }
        int n = in.read(buffer, offset, (int) Math.min(length, remaining));
        if (n < 0) {
            throw new EOFException("connection closed inside a chunk");
        }
        remaining -= n;
        return n;
    }

    private void nextChunk() throws IOException {
        if (started && !HttpLine.read(in).isEmpty()) {
            throw new IOException("chunk data not followed by CRLF");
        }
        started = true;
        String line = HttpLine.read(in);
        int extension = line.indexOf(';');
        String size = (extension < 0 ? line : line.substring(0, extension)).strip();
        remaining = Long.parseLong(size, 16);
        if (remaining == 0) {
            skipTrailers();
            finished = true;
        }
    }

    private void skipTrailers() throws IOException {
        while (!HttpLine.read(in).isEmpty()) {
            // Trailer fields carry nothing the benchmarks check.
        }
    }
}
