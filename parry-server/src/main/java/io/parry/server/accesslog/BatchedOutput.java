package io.parry.server.accesslog;

import java.io.IOException;
import java.io.OutputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;

/**
 * Encodes lines as UTF-8, each ended by a line feed, into one buffer that goes to the stream in one
 * {@code write} when the next line would not fit and at the end of each batch, followed by a flush.
 * A line is never split across two writes, so lines stay whole when other threads write to the same
 * stream between batches (a {@code PrintStream} such as {@code System.out} locks itself per write).
 * Writing per batch rather than per line is what makes a busy access log cheap: one system call for
 * a few hundred lines.
 */
final class BatchedOutput implements LineSink {
    static final int BUFFER_SIZE = 64 * 1024;
    /** Each UTF-16 char takes at most three bytes (a surrogate pair takes four for two chars). */
    private static final int MAX_BYTES_PER_CHAR = 3;

    private final OutputStream out;
    private final byte[] buffer = new byte[BUFFER_SIZE];
    private char[] chars = new char[1024];
    private int count;
    private boolean unflushed;

    BatchedOutput(OutputStream out) {
        this.out = out;
    }

    @Override
    public void line(StringBuilder line) {
        int length = line.length();
        int maxBytes = length * MAX_BYTES_PER_CHAR + 1;
        if (count + maxBytes > buffer.length) {
            writeBuffer();
            if (maxBytes > buffer.length) {
                write(line.append('\n').toString().getBytes(StandardCharsets.UTF_8));
                return;
            }
        }
        if (chars.length < length) {
            chars = new char[Math.max(length, chars.length * 2)];
        }
        line.getChars(0, length, chars, 0);
        count = encode(chars, length, buffer, count);
        buffer[count++] = '\n';
    }

    @Override
    public void endOfBatch() {
        writeBuffer();
        if (!unflushed) {
            return;
        }
        unflushed = false;
        try {
            out.flush();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    private void writeBuffer() {
        if (count > 0) {
            int length = count;
            // Emptied first: a failed write loses this batch rather than every later one.
            count = 0;
            unflushed = true;
            try {
                out.write(buffer, 0, length);
            } catch (IOException e) {
                throw new UncheckedIOException(e);
            }
        }
    }

    private void write(byte[] bytes) {
        unflushed = true;
        try {
            out.write(bytes);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** UTF-8 (RFC 3629) of {@code chars}, a lone surrogate as {@code ?}; returns the new end. */
    static int encode(char[] chars, int length, byte[] to, int at) {
        int i = 0;
        while (i < length) {
            char c = chars[i++];
            if (c < 0x80) {
                to[at++] = (byte) c;
            } else if (c < 0x800) {
                to[at++] = (byte) (0xC0 | c >> 6);
                to[at++] = (byte) (0x80 | c & 0x3F);
            } else if (Character.isHighSurrogate(c) && i < length && Character.isLowSurrogate(chars[i])) {
                int code = Character.toCodePoint(c, chars[i++]);
                to[at++] = (byte) (0xF0 | code >> 18);
                to[at++] = (byte) (0x80 | code >> 12 & 0x3F);
                to[at++] = (byte) (0x80 | code >> 6 & 0x3F);
                to[at++] = (byte) (0x80 | code & 0x3F);
            } else if (Character.isSurrogate(c)) {
                to[at++] = '?';
            } else {
                to[at++] = (byte) (0xE0 | c >> 12);
                to[at++] = (byte) (0x80 | c >> 6 & 0x3F);
                to[at++] = (byte) (0x80 | c & 0x3F);
            }
        }
        return at;
    }
}
