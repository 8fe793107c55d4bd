package io.parry.server.sse;

import io.parry.http.HttpData;
import io.parry.http.spi.Subscriptions;
import java.time.Duration;
import java.util.concurrent.Flow;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.ScheduledFuture;
import java.util.concurrent.TimeUnit;

/**
 * The body of an event-stream response: the application's events, formatted, with a comment line
 * whenever none came for the heartbeat interval. An event is requested only while the response writer
 * has asked for a chunk and no event waits, so at most one event is held. Its state is touched only on
 * the request's event loop, where every signal is moved.
 */
final class EventStream implements Flow.Publisher<HttpData> {
    private static final HttpData HEARTBEAT = HttpData.ofUtf8(":\n\n");

    private final Flow.Publisher<ServerSentEvent> events;
    private final ScheduledExecutorService loop;
    private final long heartbeatNanos;

    private Flow.Subscriber<? super HttpData> downstream;
    private Flow.Subscription upstream;
    private long demand;
    private boolean upstreamAsked;
    private ServerSentEvent waiting;
    private boolean upstreamEnded;
    private Throwable upstreamFailure;
    private boolean done;
    private long lastSentNanos;
    private ScheduledFuture<?> heartbeat;

    EventStream(Flow.Publisher<ServerSentEvent> events, ScheduledExecutorService loop, Duration heartbeat) {
        this.events = events;
        this.loop = loop;
        this.heartbeatNanos = heartbeat.toNanos();
    }

    @Override
    public void subscribe(Flow.Subscriber<? super HttpData> subscriber) {
        loop.execute(() -> {
            if (downstream != null) {
                Subscriptions.reject(subscriber, new IllegalStateException("an event stream has one subscriber"));
                return;
            }
            downstream = subscriber;
            lastSentNanos = System.nanoTime();
            subscriber.onSubscribe(new Downstream());
            if (heartbeatNanos > 0) {
                heartbeat =
                        loop.scheduleWithFixedDelay(this::beat, heartbeatNanos, heartbeatNanos, TimeUnit.NANOSECONDS);
            }
            events.subscribe(new Upstream());
        });
    }

    private void pull() {
        if (!done && upstream != null && !upstreamAsked && waiting == null && !upstreamEnded && demand > 0) {
            upstreamAsked = true;
            upstream.request(1);
        }
    }

    private void emit(HttpData chunk) {
        demand--;
        lastSentNanos = System.nanoTime();
        downstream.onNext(chunk);
    }

    private void beat() {
        if (!done && waiting == null && demand > 0 && System.nanoTime() - lastSentNanos >= heartbeatNanos) {
            emit(HEARTBEAT);
        }
    }

    /** Ends the body once no event waits any more. */
    private void endIfDrained() {
        if (upstreamEnded && waiting == null && !done) {
            stop();
            if (upstreamFailure != null) {
                downstream.onError(upstreamFailure);
            } else {
                downstream.onComplete();
            }
        }
    }

    private void stop() {
        done = true;
        if (heartbeat != null) {
            heartbeat.cancel(false);
        }
    }

    /** The response writer's side. */
    private final class Downstream implements Flow.Subscription {
        @Override
        public void request(long n) {
            loop.execute(() -> {
                if (done) {
                    return;
                }
                if (n <= 0) {
                    cancel();
                    downstream.onError(new IllegalArgumentException("n: " + n + " (expected: > 0, rule 3.9)"));
                    return;
                }
                demand = demand + n < 0 ? Long.MAX_VALUE : demand + n;
                if (waiting != null) {
                    ServerSentEvent event = waiting;
                    waiting = null;
                    emit(HttpData.ofUtf8(event.format()));
                }
                endIfDrained();
                pull();
            });
        }

        /** The client went away, or the response failed: the application's publisher is cancelled. */
        @Override
        public void cancel() {
            loop.execute(() -> {
                if (!done) {
                    stop();
                    if (upstream != null) {
                        upstream.cancel();
                    }
                }
            });
        }
    }

    /** The application's side. */
    private final class Upstream implements Flow.Subscriber<ServerSentEvent> {
        @Override
        public void onSubscribe(Flow.Subscription subscription) {
            loop.execute(() -> {
                if (done || upstream != null) {
                    subscription.cancel();
                    return;
                }
                upstream = subscription;
                pull();
            });
        }

        @Override
        public void onNext(ServerSentEvent event) {
            loop.execute(() -> {
                upstreamAsked = false;
                if (done) {
                    return;
                }
                if (demand > 0) {
                    emit(HttpData.ofUtf8(event.format()));
                    pull();
                } else {
                    waiting = event;
                }
            });
        }

        @Override
        public void onError(Throwable failure) {
            loop.execute(() -> {
                upstreamEnded = true;
                upstreamFailure = failure;
                endIfDrained();
            });
        }

        @Override
        public void onComplete() {
            loop.execute(() -> {
                upstreamEnded = true;
                endIfDrained();
            });
        }
    }
}
