package io.parry.compression.zstd;

import com.github.luben.zstd.util.Native;
import io.parry.compression.zstd.internal.ZstdDecoder;
import io.parry.compression.zstd.internal.ZstdEncoder;
import io.parry.compression.zstd.internal.ZstdWhole;
import io.parry.http.HttpData;
import io.parry.protection.ContentCoding;

/**
 * The {@code zstd} content coding (RFC 8878) for {@code CompressionFilter} and {@code
 * RequestDecompressionFilter}, on zstd-jni (the reference C library). An immutable value.
 *
 * <pre>{@code
 * CompressionFilter filter = CompressionFilter.builder()
 *         .encodings(List.of(ZstdCoding.ofDefault(), ContentCoding.gzip(6)))   // zstd preferred on ties
 *         .build();
 * }</pre>
 *
 * <p>Each chunk of a streamed body is flushed ({@code ZSTD_e_flush}: the block so far ends, so the
 * client can decode it at once); the window stays within 8 MiB, the most an HTTP recipient must
 * accept (RFC 9659), so levels go up to 19. Decoding refuses a frame that asks for a larger window,
 * so a request cannot make the server allocate more than 8 MiB of window for its body. Levels 1 to 3
 * cost about as much CPU as gzip at level 1 and compress about as well as gzip at 6.
 */
public final class ZstdCoding implements ContentCoding {
    /** zstd's own default level. */
    public static final int DEFAULT_LEVEL = 3;

    private static final int MAX_LEVEL = 19;
    private static final ZstdCoding DEFAULT = new ZstdCoding(DEFAULT_LEVEL);

    private final int level;

    private ZstdCoding(int level) {
        this.level = level;
    }

    /** zstd at level 3. */
    public static ZstdCoding ofDefault() {
        return DEFAULT;
    }

    /**
     * zstd at this level, 1 (fastest) to 19 (smallest).
     *
     * @throws IllegalArgumentException for another level
     */
    public static ZstdCoding of(int level) {
        if (level < 1 || level > MAX_LEVEL) {
            throw new IllegalArgumentException("level: " + level + " (expected: 1 to " + MAX_LEVEL + ")");
        }
        return new ZstdCoding(level);
    }

    /**
     * Whether zstd-jni's native library loads on this platform; when it does not (an operating system
     * or processor it has no build for), the coding fails when first used.
     */
    public static boolean isAvailable() {
        try {
            Native.load();
            return true;
        } catch (LinkageError e) {
            return false;
        }
    }

    /** The level, 1 to 19. */
    public int level() {
        return level;
    }

    @Override
    public String token() {
        return "zstd";
    }

    @Override
    public Transform encoder() {
        return new ZstdEncoder(level);
    }

    @Override
    public Transform decoder(long maxSize) {
        return new ZstdDecoder(maxSize);
    }

    @Override
    public HttpData encode(HttpData body) {
        return ZstdWhole.compress(level, body);
    }

    @Override
    public boolean equals(Object other) {
        return other instanceof ZstdCoding that && level == that.level;
    }

    @Override
    public int hashCode() {
        return level;
    }

    @Override
    public String toString() {
        return "zstd(level " + level + ")";
    }
}
