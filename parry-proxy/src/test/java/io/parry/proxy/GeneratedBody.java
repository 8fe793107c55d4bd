package io.parry.proxy;

import io.parry.http.HttpData;
import java.util.concurrent.Flow;
import java.util.concurrent.atomic.AtomicLong;

/**
 * A body source for tests: publishes {@code total} zero bytes in 64 KiB chunks, only as they are
 * requested, and counts how many it produced, so a test can see how far a reader let it run ahead.
 */
final class GeneratedBody implements Flow.Publisher<HttpData> {
    private static final int CHUNK = 64 * 1024;
    private static final HttpData BLOCK = HttpData.wrap(new byte[CHUNK]);

    private final long total;
    private final AtomicLong produced = new AtomicLong();

    GeneratedBody(long total) {
        this.total = total;
    }

    /** The bytes published so far. */
    long produced() {
        return produced.get();
    }

    @Override
    public void subscribe(Flow.Subscriber<? super HttpData> subscriber) {
        subscriber.onSubscribe(new Flow.Subscription() {
            private long demand;
            private boolean emitting;
            private boolean done;

            @Override
            public synchronized void request(long n) {
                demand += n;
                if (emitting) {
                    return; // The loop below is on the stack and sees the new demand.
                }
                emitting = true;
                while (demand > 0 && !done) {
                    long sent = produced.get();
                    if (sent >= total) {
                        done = true;
                        subscriber.onComplete();
                        break;
                    }
                    HttpData chunk = sent + CHUNK <= total ? BLOCK : HttpData.wrap(new byte[(int) (total - sent)]);
                    demand--;
                    produced.addAndGet(chunk.length());
                    subscriber.onNext(chunk);
                }
                emitting = false;
            }

            @Override
            public synchronized void cancel() {
                done = true;
            }
        });
    }
}
