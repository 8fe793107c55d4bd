package io.parry.protection.internal;

import io.parry.http.ContentTooLargeException;
import io.parry.http.HttpBody;
import io.parry.http.HttpData;
import io.parry.http.HttpStatus;
import io.parry.http.HttpStatusException;
import java.util.Arrays;
import java.util.concurrent.Flow;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.zip.CRC32;
import java.util.zip.DataFormatException;
import java.util.zip.Inflater;

/**
 * A request body decompressed chunk by chunk as it is read, failing with {@link
 * ContentTooLargeException} (413) as soon as it inflates past its bound, and with a 400 when it is not
 * valid gzip or deflate data or ends early. No array is ever larger than what is left of the bound plus
 * one byte, so a body that inflates a thousandfold (a "zip bomb") costs at most the bound.
 */
public final class InflatingBody {
    private InflatingBody() {}

    /** The source read through the decompressor. */
    public static HttpBody of(HttpBody source, ContentCoding coding, long maxSize) {
        return new TransformedBody(source, downstream -> new Decompressor(downstream, coding, maxSize));
    }

    /** Passes demand up one for one; a chunk that inflates to nothing asks the source for another. */
    private static final class Decompressor implements Flow.Subscriber<HttpData>, Flow.Subscription {
        private final Flow.Subscriber<? super HttpData> downstream;
        private final ContentCoding coding;
        private final long maxSize;
        private final Inflater inflater;
        private final GzipHeader header;
        private final CRC32 crc;
        private final byte[] trailer = new byte[GzipTrailer.LENGTH];
        private final AtomicBoolean ended = new AtomicBoolean();
        private final HttpData.BytesReader<HttpData, DataFormatException> reader = this::inflate;
        private Flow.Subscription upstream;
        private int trailerRead;
        private long size;
        private boolean failed;
        private volatile boolean cancelled;

        Decompressor(Flow.Subscriber<? super HttpData> downstream, ContentCoding coding, long maxSize) {
            this.downstream = downstream;
            this.coding = coding;
            this.maxSize = maxSize;
            boolean gzip = coding == ContentCoding.GZIP;
            this.inflater = new Inflater(gzip);
            this.header = gzip ? new GzipHeader() : null;
            this.crc = gzip ? new CRC32() : null;
        }

        @Override
        public void onSubscribe(Flow.Subscription subscription) {
            upstream = subscription;
            downstream.onSubscribe(this);
        }

        @Override
        public void request(long n) {
            upstream.request(n);
        }

        @Override
        public void cancel() {
            cancelled = true;
            upstream.cancel();
            end();
        }

        @Override
        public void onNext(HttpData chunk) {
            if (cancelled || failed) {
                return;
            }
            HttpData inflated;
            try {
                inflated = chunk.read(reader);
            } catch (DataFormatException | IllegalArgumentException e) {
                fail(malformed(e));
                return;
            } catch (HttpStatusException e) {
                fail(e);
                return;
            } catch (RuntimeException e) {
                if (!cancelled) { // else the inflater was ended under this chunk
                    fail(e);
                }
                return;
            }
            if (inflated.isEmpty()) {
                upstream.request(1);
            } else {
                downstream.onNext(inflated);
            }
        }

        @Override
        public void onComplete() {
            if (cancelled || failed) {
                return;
            }
            boolean complete = inflater.finished() && (header == null || trailerRead == GzipTrailer.LENGTH);
            end();
            if (complete) {
                downstream.onComplete();
            } else {
                downstream.onError(new HttpStatusException(
                        HttpStatus.BAD_REQUEST, "The request body ended before its " + coding.token() + " data did."));
            }
        }

        @Override
        public void onError(Throwable failure) {
            end();
            if (!cancelled && !failed) {
                downstream.onError(failure);
            }
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

        private HttpStatusException malformed(Exception cause) {
            return new HttpStatusException(
                    HttpStatus.BAD_REQUEST, "The request body is not valid " + coding.token() + " data.", cause);
        }

        private void fail(Throwable failure) {
            failed = true;
            upstream.cancel();
            end();
            downstream.onError(failure);
        }

        private void end() {
            if (ended.compareAndSet(false, true)) {
                inflater.end();
            }
        }
    }
}
