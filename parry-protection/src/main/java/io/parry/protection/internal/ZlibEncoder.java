package io.parry.protection.internal;

import io.parry.http.HttpData;
import io.parry.protection.ContentCoding;
import java.util.Arrays;
import java.util.zip.CRC32;
import java.util.zip.Deflater;

/**
 * A gzip or deflate stream written chunk by chunk. Each chunk ends with a sync flush (an empty stored
 * block, RFC 1951 section 3.2.4), so that what was given so far can be decoded whole; the end carries
 * what {@link Deflater#finish()} writes and, for gzip, the trailer.
 */
final class ZlibEncoder implements ContentCoding.Transform {
    private final boolean gzip;
    private final Deflater deflater;
    private final CRC32 crc;
    private boolean started;
    private long size;

    ZlibEncoder(boolean gzip, int level) {
        this.gzip = gzip;
        this.deflater = new Deflater(level, gzip);
        this.crc = gzip ? new CRC32() : null;
    }

    @Override
    public HttpData apply(HttpData chunk) {
        if (gzip) {
            Checksums.update(crc, chunk);
        }
        size += chunk.length();
        deflater.setInput(chunk.asByteBuffer());
        return deflate(chunk.length() / 2 + 64, Deflater.SYNC_FLUSH);
    }

    @Override
    public HttpData finish() {
        deflater.finish();
        return deflate(64, Deflater.NO_FLUSH);
    }

    @Override
    public void close() {
        deflater.end();
    }

    /**
     * What the deflater gives for its input: after a sync flush, or, with {@code NO_FLUSH} after
     * {@code finish()}, to the end of the stream and the gzip trailer. The gzip header goes first.
     */
    private HttpData deflate(int sizeHint, int flush) {
        boolean finishing = flush == Deflater.NO_FLUSH;
        byte[] out = new byte[sizeHint + (started ? 0 : Deflation.GZIP_HEADER.length)];
        int position = 0;
        if (gzip && !started) {
            System.arraycopy(Deflation.GZIP_HEADER, 0, out, 0, Deflation.GZIP_HEADER.length);
            position = Deflation.GZIP_HEADER.length;
        }
        started = true;
        while (true) {
            position += deflater.deflate(out, position, out.length - position, flush);
            if (finishing ? deflater.finished() : position < out.length) {
                break;
            }
            if (position == out.length) {
                out = Arrays.copyOf(out, out.length * 2);
            }
        }
        if (gzip && finishing) {
            if (out.length - position < GzipTrailer.LENGTH) {
                out = Arrays.copyOf(out, position + GzipTrailer.LENGTH);
            }
            position = GzipTrailer.write(out, position, crc.getValue(), size);
        }
        return HttpData.wrap(out, 0, position);
    }
}
