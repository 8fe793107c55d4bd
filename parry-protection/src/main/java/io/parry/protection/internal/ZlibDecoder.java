package io.parry.protection.internal;

import io.parry.http.ContentTooLargeException;
import io.parry.http.HttpData;
import io.parry.http.HttpStatus;
import io.parry.http.HttpStatusException;
import io.parry.protection.ContentCoding;
import java.util.Arrays;
import java.util.zip.CRC32;
import java.util.zip.DataFormatException;
import java.util.zip.Inflater;

/**
 * A gzip or deflate stream read chunk by chunk. No array is ever larger than what is left of the bound
 * plus one byte, so a body that inflates a thousandfold (a "zip bomb") costs at most the bound.
 */
final class ZlibDecoder implements ContentCoding.Transform {
    private final boolean gzip;
    private final long maxSize;
    private final Inflater inflater;
    private final GzipHeader header;
    private final CRC32 crc;
    private final byte[] trailer = new byte[GzipTrailer.LENGTH];
    private final HttpData.BytesReader<HttpData, DataFormatException> reader = this::inflate;
    private int trailerRead;
    private long size;

    ZlibDecoder(boolean gzip, long maxSize) {
        this.gzip = gzip;
        this.maxSize = maxSize;
        this.inflater = new Inflater(gzip);
        this.header = gzip ? new GzipHeader() : null;
        this.crc = gzip ? new CRC32() : null;
    }

    @Override
    public HttpData apply(HttpData chunk) {
        try {
            return chunk.read(reader);
        } catch (DataFormatException | IllegalArgumentException e) {
            throw new HttpStatusException(
                    HttpStatus.BAD_REQUEST, "The request body is not valid " + token() + " data.", e);
        }
    }

    @Override
    public HttpData finish() {
        if (!inflater.finished() || (gzip && trailerRead < GzipTrailer.LENGTH)) {
            throw new HttpStatusException(
                    HttpStatus.BAD_REQUEST, "The request body ended before its " + token() + " data did.");
        }
        return HttpData.empty();
    }

    @Override
    public void close() {
        inflater.end();
    }

    private String token() {
        return gzip ? "gzip" : "deflate";
    }

    private HttpData inflate(byte[] bytes, int start, int length) throws DataFormatException {
        int end = start + length;
        int position = start;
        if (header != null && !header.done()) {
            position = header.read(bytes, position, end);
        }
        HttpData inflated = HttpData.empty();
        if (position < end && !inflater.finished()) {
            inflater.setInput(bytes, position, end - position);
            inflated = inflateInput(length);
            position = end - inflater.getRemaining();
        }
        if (position < end && inflater.finished()) {
            readTrailer(bytes, position, end);
        }
        return inflated;
    }

    /** All the inflater's input, inflated into arrays that never exceed what is left of the bound plus one. */
    private HttpData inflateInput(int inputLength) throws DataFormatException {
        long left = maxSize - size;
        byte[] out = new byte[(int) Math.min(Math.max(inputLength * 4L, 256), left + 1)];
        int position = 0;
        while (!inflater.finished() && !inflater.needsInput()) {
            if (inflater.needsDictionary()) {
                throw new DataFormatException("a preset dictionary is not supported");
            }
            if (position == out.length) {
                if (position > left) {
                    throw new ContentTooLargeException(maxSize);
                }
                out = Arrays.copyOf(out, (int) Math.min(out.length * 2L, left + 1));
            }
            position += inflater.inflate(out, position, out.length - position);
        }
        if (position > left) {
            throw new ContentTooLargeException(maxSize);
        }
        size += position;
        if (crc != null) {
            crc.update(out, 0, position);
        }
        return HttpData.wrap(out, 0, position);
    }

    /** The gzip trailer after the data (RFC 1952, section 2.3.1); nothing may follow the stream. */
    private void readTrailer(byte[] bytes, int start, int end) {
        int count = Math.min(end - start, GzipTrailer.LENGTH - trailerRead);
        if (header == null || count < end - start) {
            throw new IllegalArgumentException("bytes after the end of the compressed data");
        }
        System.arraycopy(bytes, start, trailer, trailerRead, count);
        trailerRead += count;
        if (trailerRead == GzipTrailer.LENGTH
                && (GzipTrailer.readInt(trailer, 0) != crc.getValue()
                        || GzipTrailer.readInt(trailer, 4) != (size & 0xffffffffL))) {
            throw new IllegalArgumentException("the gzip trailer does not match the data");
        }
    }
}
