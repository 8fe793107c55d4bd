package io.parry.protection.internal;

import io.parry.http.HttpData;
import io.parry.protection.ContentCoding;
import java.util.concurrent.Flow;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicLong;

/**
 * Reads a source through a {@link ContentCoding.Transform}, passing demand up one for one: a chunk that
 * transforms to nothing asks the source for another instead. What the transform gives at the end waits
 * for demand; a failure of the transform cancels the source and fails the body.
 */
final class TransformingSubscriber implements Flow.Subscriber<HttpData>, Flow.Subscription {
    private final Flow.Subscriber<? super HttpData> downstream;
    private final ContentCoding.Transform transform;
    private final AtomicLong demand = new AtomicLong();
    private final AtomicBoolean lastSent = new AtomicBoolean();
    private final AtomicBoolean closed = new AtomicBoolean();
    private Flow.Subscription upstream;
    private volatile HttpData last;
    private volatile boolean cancelled;

    TransformingSubscriber(Flow.Subscriber<? super HttpData> downstream, ContentCoding.Transform transform) {
        this.downstream = downstream;
        this.transform = transform;
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
        close();
    }

    @Override
    public void onNext(HttpData chunk) {
        if (cancelled) {
            return;
        }
        HttpData transformed;
        try {
            transformed = transform.apply(chunk);
        } catch (RuntimeException e) {
            fail(e);
            return;
        }
        if (transformed.isEmpty()) {
            upstream.request(1);
            return;
        }
        demand.decrementAndGet();
        downstream.onNext(transformed);
    }

    @Override
    public void onComplete() {
        if (cancelled) {
            return;
        }
        HttpData end;
        try {
            end = transform.finish();
        } catch (RuntimeException e) {
            fail(e);
            return;
        } finally {
            close();
        }
        last = end;
        // Completing needs no demand (rule 1.4); a last chunk does.
        if (end.isEmpty() || demand.get() > 0) {
            sendLast();
        }
    }

    @Override
    public void onError(Throwable failure) {
        close();
        if (!cancelled) {
            downstream.onError(failure);
        }
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
            return; // The transform was closed under a chunk.
        }
        cancelled = true;
        upstream.cancel();
        close();
        downstream.onError(failure);
    }

    private void close() {
        if (closed.compareAndSet(false, true)) {
            transform.close();
        }
    }
}
