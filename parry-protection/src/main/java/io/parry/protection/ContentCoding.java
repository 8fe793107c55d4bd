package io.parry.protection;

import io.parry.http.HttpData;
import io.parry.protection.internal.ZlibCoding;

/**
 * A content coding (RFC 9110, section 8.4.1) that {@link CompressionFilter} may write and {@link
 * RequestDecompressionFilter} may read: gzip and deflate are built in ({@link #gzip(int)}, {@link
 * #deflate(int)}); optional modules add others, such as {@code parry-compression-zstd}'s {@code
 * ZstdCoding}. Implementations are immutable values (equality included) shared by all requests.
 *
 * <p>A body is coded as a stream of chunks: a {@link Transform} per body, made when the body is first
 * read and used by one thread at a time (the one delivering the body's chunks).
 */
public interface ContentCoding {
    /** gzip (RFC 1952; {@code x-gzip} is read as the same coding) at this zlib level, 1 to 9. */
    static ContentCoding gzip(int level) {
        return ZlibCoding.of(true, level);
    }

    /** deflate (RFC 1950, a zlib stream) at this zlib level, 1 to 9. */
    static ContentCoding deflate(int level) {
        return ZlibCoding.of(false, level);
    }

    /** The coding's name in {@code Accept-Encoding} and {@code Content-Encoding}, lower case. */
    String token();

    /**
     * A new encoder for one body. Each {@link Transform#apply apply} returns all it was given, encoded
     * and flushed, so that a stream (events, a slow upstream) is never held back for more input.
     */
    Transform encoder();

    /**
     * A new decoder for one body, which fails with {@link io.parry.http.ContentTooLargeException} as
     * soon as the decoded bytes would pass {@code maxSize} (never holding more than what is left of it),
     * and with an {@link io.parry.http.HttpStatusException} of 400 when the data is not of this coding or
     * ends early.
     */
    Transform decoder(long maxSize);

    /**
     * A whole body encoded at once. The default uses an {@link #encoder()}; a coding may keep its
     * native state per thread instead, as gzip and deflate do on event loops.
     */
    default HttpData encode(HttpData body) {
        Transform encoder = encoder();
        try {
            HttpData head = encoder.apply(body);
            HttpData tail = encoder.finish();
            byte[] joined = new byte[head.length() + tail.length()];
            head.read((bytes, offset, length) -> {
                System.arraycopy(bytes, offset, joined, 0, length);
                return null;
            });
            tail.read((bytes, offset, length) -> {
                System.arraycopy(bytes, offset, joined, head.length(), length);
                return null;
            });
            return HttpData.wrap(joined);
        } finally {
            encoder.close();
        }
    }

    /**
     * One body's encoder or decoder: chunks in, chunks out, then the end. Not thread-safe; holds native
     * memory until {@link #close()}.
     */
    interface Transform {
        /** The chunk transformed: what is ready now (possibly nothing). */
        HttpData apply(HttpData chunk);

        /** What ends the body: an encoder's last bytes; a decoder checks that its data was complete. */
        HttpData finish();

        /**
         * Frees the native state; called once, after {@link #finish()} or when the body fails or is
         * cancelled, possibly while another thread is in {@link #apply}, which may then fail.
         */
        void close();
    }
}
