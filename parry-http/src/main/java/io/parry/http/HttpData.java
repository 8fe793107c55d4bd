package io.parry.http;

import static java.util.Objects.requireNonNull;

import java.io.IOException;
import java.io.OutputStream;
import java.nio.ByteBuffer;
import java.nio.charset.Charset;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;

/**
 * An immutable chunk of body bytes. A chunk holds no pooled memory and needs no release: the server
 * copies received bytes into a chunk only when application code asks for them, and passes bodies it
 * forwards untouched (an echo, a proxy) without making chunks at all.
 */
public final class HttpData {
    private static final HttpData EMPTY = new HttpData(new byte[0], 0, 0);

    private final byte[] array;
    private final int offset;
    private final int length;

    private HttpData(byte[] array, int offset, int length) {
        this.array = array;
        this.offset = offset;
        this.length = length;
    }

    /** A chunk with no bytes. */
    public static HttpData empty() {
        return EMPTY;
    }

    /** A chunk holding a copy of these bytes. */
    public static HttpData copyOf(byte[] bytes) {
        return wrap(bytes.clone());
    }

    /**
     * A chunk backed by this array, without a copy: the caller hands the array over and must not
     * change it afterwards.
     */
    public static HttpData wrap(byte[] bytes) {
        requireNonNull(bytes, "bytes");
        return bytes.length == 0 ? EMPTY : new HttpData(bytes, 0, bytes.length);
    }

    /** A chunk backed by part of this array, without a copy; the caller must not change it afterwards. */
    public static HttpData wrap(byte[] bytes, int offset, int length) {
        requireNonNull(bytes, "bytes");
        if (offset < 0 || length < 0 || length > bytes.length - offset) {
            throw new IndexOutOfBoundsException(
                    "offset: " + offset + ", length: " + length + " (expected: within " + bytes.length + ")");
        }
        return length == 0 ? EMPTY : new HttpData(bytes, offset, length);
    }

    /** A chunk holding this text in UTF-8. */
    public static HttpData ofUtf8(String text) {
        return wrap(text.getBytes(StandardCharsets.UTF_8));
    }

    /** The number of bytes. */
    public int length() {
        return length;
    }

    /** Whether the chunk has no bytes. */
    public boolean isEmpty() {
        return length == 0;
    }

    /** The byte at {@code index}. */
    public byte byteAt(int index) {
        if (index < 0 || index >= length) {
            throw new IndexOutOfBoundsException("index: " + index + " (expected: 0 to " + (length - 1) + ")");
        }
        return array[offset + index];
    }

    /** A new array holding the bytes. */
    public byte[] toByteArray() {
        return Arrays.copyOfRange(array, offset, offset + length);
    }

    /** A read-only view of the bytes, without a copy. */
    public ByteBuffer asByteBuffer() {
        return ByteBuffer.wrap(array, offset, length).slice().asReadOnlyBuffer();
    }

    /**
     * Hands the bytes to a reader in place, without a copy: for decoders that parse straight from an
     * array, such as Jackson's {@code createParser(byte[], int, int)}. The reader must not change the
     * array, nor keep it after it returns.
     */
    public <R, X extends Exception> R read(BytesReader<R, X> reader) throws X {
        return reader.read(array, offset, length);
    }

    /** The bytes decoded with this charset. */
    public String toString(Charset charset) {
        return new String(array, offset, length, charset);
    }

    /** The bytes decoded as UTF-8. */
    public String toStringUtf8() {
        return toString(StandardCharsets.UTF_8);
    }

    /** Writes the bytes to the stream. */
    public void writeTo(OutputStream out) throws IOException {
        out.write(array, offset, length);
    }

    /**
     * Reads a range of an array that it must neither change nor keep; see {@link HttpData#read}.
     *
     * @param <R> what the reader makes of the bytes
     * @param <X> what the reader may throw
     */
    @FunctionalInterface
    public interface BytesReader<R, X extends Exception> {
        /** Reads {@code length} bytes of {@code bytes} from {@code offset}. */
        R read(byte[] bytes, int offset, int length) throws X;
    }

    @Override
    public boolean equals(Object o) {
        if (!(o instanceof HttpData)) {
            return false;
        }
        HttpData other = (HttpData) o;
        return Arrays.equals(array, offset, offset + length, other.array, other.offset, other.offset + other.length);
    }

    @Override
    public int hashCode() {
        int hash = 1;
        for (int i = offset; i < offset + length; i++) {
            hash = 31 * hash + array[i];
        }
        return hash;
    }

    @Override
    public String toString() {
        return "HttpData(" + length + " bytes)";
    }
}
