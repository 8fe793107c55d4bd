package io.parry.it;

import io.parry.http.HttpData;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.Flow;
import java.util.concurrent.atomic.AtomicLong;

/** Publishes 64 KiB chunks for as long as they are requested, and records how many and whether it was cancelled. */
final class EndlessBody implements Flow.Publisher<HttpData> {
    static final int CHUNK = 64 * 1024;
    private static final HttpData DATA = HttpData.wrap(new byte[CHUNK]);

    final AtomicLong published = new AtomicLong();
    final CountDownLatch cancelled = new CountDownLatch(1);

    @Override
    public void subscribe(Flow.Subscriber<? super HttpData> subscriber) {
        subscriber.onSubscribe(new Flow.Subscription() {
            @Override
            public void request(long n) {
                for (long i = 0; i < n && cancelled.getCount() > 0; i++) {
                    published.incrementAndGet();
                    subscriber.onNext(DATA);
                }
            }

            @Override
            public void cancel() {
                cancelled.countDown();
            }
        });
    }
}
