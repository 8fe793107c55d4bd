package io.parry.protection.internal;

import io.parry.http.HttpBody;
import io.parry.http.HttpData;
import java.util.Arrays;
import java.util.concurrent.Flow;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicLong;
import java.util.zip.CRC32;
import java.util.zip.Deflater;

/**
 * A streamed body compressed chunk by chunk as it is read, never held whole. Each chunk of the source
 * leaves compressed at once, ended by a sync flush (an empty stored block, RFC 1951 section 3.2.4), so
 * a stream (events, a slow upstream) is never held back waiting for more input; the last chunk carries
 * what {@link Deflater#finish()} writes and, for gzip, the trailer. The source's trailer fields follow.
 */
public final class CompressingBody {
    private CompressingBody() {}

    /** The source read through the compressor. */
    public static HttpBody of(HttpBody source, ContentCoding coding, int level) {
        return new TransformedBody(source, downstream -> new Compressor(downstream, coding, level));
    }

    /**
     * Passes demand up one for one: a chunk that compresses to nothing (never, with a sync flush, but
     * for an empty one) asks the source for another instead. The closing chunk waits for demand.
     */
    private static final class Compressor implements Flow.Subscriber<HttpData>, Flow.Subscription {
        private final Flow.Subscriber<? super HttpData> downstream;
        private final boolean gzip;
        private final Deflater deflater;
        private final CRC32 crc;
        private final AtomicLong demand = new AtomicLong();
        private final AtomicBoolean lastSent = new AtomicBoolean();
        private final AtomicBoolean ended = new AtomicBoolean();
        private Flow.Subscription upstream;
        private boolean started;
        private long size;
        private volatile HttpData last;
        private volatile boolean cancelled;

        Compressor(Flow.Subscriber<? super HttpData> downstream, ContentCoding coding, int level) {
            this.downstream = downstream;
            this.gzip = coding == ContentCoding.GZIP;
            this.deflater = new Deflater(level, gzip);
            this.crc = gzip ? new CRC32() : null;
        }

        @Override
        public void onSubscribe(Flow.Subscription subscription) {
            upstream = subscription;
            downstream.onSubscribe(this);
        }

        @Override
        public void request(long n) {
            if (n <= 0) {
                cancel();
                downstream.onError(new IllegalArgumentException("n: " + n + " (expected: > 0, rule 3.9)"));
                return;
            }
            demand.getAndAccumulate(n, (current, added) -> current + added < 0 ? Long.MAX_VALUE : current + added);
            if (last != null) {
                sendLast();
            } else {
                upstream.request(n);
            }
        }

        @Override
        public void cancel() {
            cancelled = true;
            upstream.cancel();
            end();
        }

        @Override
        public void onNext(HttpData chunk) {
            if (cancelled) {
                return;
            }
            HttpData compressed;
            try {
                if (gzip) {
                    Checksums.update(crc, chunk);
                }
                size += chunk.length();
                deflater.setInput(chunk.asByteBuffer());
                compressed = deflate(chunk.length() / 2 + 64, Deflater.SYNC_FLUSH);
            } catch (RuntimeException e) {
                fail(e);
                return;
            }
            if (compressed.isEmpty()) {
                upstream.request(1);
                return;
            }
            demand.decrementAndGet();
            downstream.onNext(compressed);
        }

        @Override
        public void onComplete() {
            if (cancelled) {
                return;
            }
            try {
                deflater.finish();
                last = deflate(64, Deflater.NO_FLUSH);
            } catch (RuntimeException e) {
                fail(e);
                return;
            } finally {
                end();
            }
            if (demand.get() > 0) {
                sendLast();
            }
        }

        @Override
        public void onError(Throwable failure) {
            end();
            if (!cancelled) {
                downstream.onError(failure);
            }
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

        private void sendLast() {
            if (lastSent.compareAndSet(false, true)) {
                HttpData data = last;
                if (!data.isEmpty()) {
                    downstream.onNext(data);
                }
                downstream.onComplete();
            }
        }

        private void fail(RuntimeException failure) {
            if (cancelled) {
                return; // The deflater was ended under a chunk being compressed.
            }
            cancelled = true;
            upstream.cancel();
            end();
            downstream.onError(failure);
        }

        private void end() {
            if (ended.compareAndSet(false, true)) {
                deflater.end();
            }
        }
    }
}
