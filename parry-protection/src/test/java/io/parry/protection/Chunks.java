package io.parry.protection;

import io.parry.http.HttpData;
import java.util.List;
import java.util.concurrent.Flow;

/** A publisher of fixed chunks that honours demand, on the subscriber's thread. */
final class Chunks implements Flow.Publisher<HttpData> {
    private final List<String> texts;

    private Chunks(List<String> texts) {
        this.texts = texts;
    }

    static Chunks of(String... texts) {
        return new Chunks(List.of(texts));
    }

    @Override
    public void subscribe(Flow.Subscriber<? super HttpData> subscriber) {
        subscriber.onSubscribe(new Flow.Subscription() {
            private int next;
            private long demand;
            private boolean emitting;

            @Override
            public void request(long n) {
                demand += n;
                if (emitting) {
                    return;
                }
                emitting = true;
                while (demand > 0 && next < texts.size()) {
                    demand--;
                    subscriber.onNext(HttpData.ofUtf8(texts.get(next++)));
                }
                if (next == texts.size()) {
                    next++;
                    subscriber.onComplete();
                }
                emitting = false;
            }

            @Override
            public void cancel() {
                next = texts.size() + 1;
            }
        });
    }
}
