package io.parry.demo.live;

import io.parry.server.sse.ServerSentEvent;
import java.time.Duration;
import java.util.concurrent.Flow;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.ScheduledFuture;
import java.util.concurrent.TimeUnit;

/**
 * Numbered ticks on an event loop: the first at once, then one per interval, as many as asked. A tick
 * that falls due while its reader has not asked for it waits, and the ones after it are due an
 * interval after it leaves. Its state is touched only on the loop.
 */
final class Ticks implements Flow.Publisher<ServerSentEvent> {
    private final ScheduledExecutorService loop;
    private final long first;
    private final int count;
    private final long intervalNanos;

    Ticks(ScheduledExecutorService loop, long first, int count, Duration interval) {
        this.loop = loop;
        this.first = first;
        this.count = count;
        this.intervalNanos = interval.toNanos();
    }

    @Override
    public void subscribe(Flow.Subscriber<? super ServerSentEvent> subscriber) {
        loop.execute(() -> {
            Subscription subscription = new Subscription(subscriber);
            subscriber.onSubscribe(subscription);
            if (count == 0) {
                subscription.finish();
            }
        });
    }

    private final class Subscription implements Flow.Subscription {
        private final Flow.Subscriber<? super ServerSentEvent> subscriber;
        private int sent;
        private long demand;
        private boolean due = true;
        private boolean done;
        private ScheduledFuture<?> next;

        Subscription(Flow.Subscriber<? super ServerSentEvent> subscriber) {
            this.subscriber = subscriber;
        }

        @Override
        public void request(long n) {
            loop.execute(() -> {
                demand = demand + n < 0 ? Long.MAX_VALUE : demand + n;
                emitIfDue();
            });
        }

        @Override
        public void cancel() {
            loop.execute(() -> {
                done = true;
                if (next != null) {
                    next.cancel(false);
                }
            });
        }

        private void emitIfDue() {
            if (done || !due || demand == 0) {
                return;
            }
            due = false;
            demand--;
            long id = first + sent;
            sent++;
            subscriber.onNext(ServerSentEvent.of(Long.toString(id)).withId(Long.toString(id)));
            if (sent == count) {
                finish();
            } else {
                next = loop.schedule(this::tick, intervalNanos, TimeUnit.NANOSECONDS);
            }
        }

        private void tick() {
            due = true;
            emitIfDue();
        }

        void finish() {
            done = true;
            subscriber.onComplete();
        }
    }
}
