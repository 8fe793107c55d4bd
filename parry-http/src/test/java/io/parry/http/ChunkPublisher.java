package io.parry.http;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Flow;

/**
 * A synchronous publisher of fixed chunks for tests: it honours demand, may end with a failure, and
 * records what its subscriber did.
 */
final class ChunkPublisher implements Flow.Publisher<HttpData> {
    private final List<HttpData> chunks;
    private final Throwable failure;
    private int subscriptions;
    private int published;
    private boolean cancelled;

    private ChunkPublisher(List<HttpData> chunks, Throwable failure) {
        this.chunks = chunks;
        this.failure = failure;
    }

    static ChunkPublisher of(String... chunks) {
        return new ChunkPublisher(utf8(chunks), null);
    }

    static ChunkPublisher of(HttpData... chunks) {
        return new ChunkPublisher(List.of(chunks), null);
    }

    static ChunkPublisher failingAfter(Throwable failure, String... chunks) {
        return new ChunkPublisher(utf8(chunks), failure);
    }

    private static List<HttpData> utf8(String... chunks) {
        List<HttpData> data = new ArrayList<>();
        for (String chunk : chunks) {
            data.add(HttpData.ofUtf8(chunk));
        }
        return data;
    }

    int subscriptions() {
        return subscriptions;
    }

    int published() {
        return published;
    }

    boolean cancelled() {
        return cancelled;
    }

    @Override
    public void subscribe(Flow.Subscriber<? super HttpData> subscriber) {
        subscriptions++;
        subscriber.onSubscribe(new Flow.Subscription() {
            private long demand;
            private boolean emitting;
            private boolean done;

            @Override
            public void request(long n) {
                if (done) {
                    return;
                }
                demand = demand + n < 0 ? Long.MAX_VALUE : demand + n;
                if (emitting) {
                    return;
                }
                emitting = true;
                while (!done && published < chunks.size() && demand > 0) {
                    demand--;
                    subscriber.onNext(chunks.get(published++));
                }
                if (!done && published == chunks.size()) {
                    done = true;
                    if (failure != null) {
                        subscriber.onError(failure);
                    } else {
                        subscriber.onComplete();
                    }
                }
                emitting = false;
            }

            @Override
            public void cancel() {
                cancelled = true;
                done = true;
            }
        });
    }
}
