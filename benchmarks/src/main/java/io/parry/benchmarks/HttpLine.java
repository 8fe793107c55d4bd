package io.parry.benchmarks;

import java.io.EOFException;
import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;

/** Reads one CRLF-terminated line of an HTTP/1.1 message head or chunk framing from a blocking stream. */
final class HttpLine {
    /** Longer lines mean the peer is not speaking HTTP; fail instead of buffering without bound. */
    private static final int MAX_LENGTH = 16 * 1024;

    private HttpLine() {}

    /**
     * Returns the next line without its line ending; a bare LF is accepted as RFC 9112 section 2.2 allows.
     *
     * @throws EOFException if the stream ends before the line does
     */
    static String read(InputStream in) throws IOException {
        byte[] line = new byte[128];
        int length = 0;
        for (int b = in.read(); b != '\n'; b = in.read()) {
            if (b < 0) {
                throw new EOFException("connection closed in the middle of a line");
            }
            if (length == line.length) {
                line = grow(line);
            }
            line[length++] = (byte) b;
        }
        if (length > 0 && line[length - 1] == '\r') {
            length--;
        }
        return new String(line, 0, length, StandardCharsets.ISO_8859_1);
    }

    private static byte[] grow(byte[] line) throws IOException {
        if (line.length >= MAX_LENGTH) {
            throw new IOException("line longer than " + MAX_LENGTH + " bytes");
        }
        return Arrays.copyOf(line, line.length * 2);
    }
}
