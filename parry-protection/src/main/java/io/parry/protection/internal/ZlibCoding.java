package io.parry.protection.internal;

import io.parry.http.HttpData;
import io.parry.protection.ContentCoding;

/**
 * gzip or deflate with the JDK's zlib (RFC 9110, section 8.4.1).
 *
 * @param gzip gzip (RFC 1952 framing) rather than deflate (RFC 1950)
 * @param level the zlib level, 1 to 9
 */
public record ZlibCoding(boolean gzip, int level) implements ContentCoding {
    /** The coding; fails with {@link IllegalArgumentException} for a level outside 1 to 9. */
    public static ZlibCoding of(boolean gzip, int level) {
        if (level < 1 || level > 9) {
            throw new IllegalArgumentException("level: " + level + " (expected: 1 to 9)");
        }
        return new ZlibCoding(gzip, level);
    }

    @Override
    public String token() {
        return gzip ? "gzip" : "deflate";
    }

    @Override
    public Transform encoder() {
        return new ZlibEncoder(gzip, level);
    }

    @Override
    public Transform decoder(long maxSize) {
        return new ZlibDecoder(gzip, maxSize);
    }

    @Override
    public HttpData encode(HttpData body) {
        return Deflation.compress(gzip, level, body);
    }

    @Override
    public String toString() {
        return token() + "(level " + level + ")";
    }
}
