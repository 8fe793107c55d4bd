package io.parry.transport.spi;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.CompositeByteBuf;
import io.netty.buffer.Unpooled;
import io.netty.util.concurrent.EventExecutor;
import io.parry.http.HttpBody;
import io.parry.http.HttpData;
import io.parry.http.HttpHeaders;
import io.parry.http.spi.Subscriptions;
import java.util.ArrayDeque;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.Flow;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * A body arriving from a socket, fed by the connection and read by one subscriber with
 * backpressure. All state is confined to the connection's event loop; calls from other threads
 * hop onto it. When {@value #HIGH_WATERMARK} bytes or more wait for demand the connection stops
 * reading, so a slow consumer holds a bounded amount of memory whatever the body's size.
 */
public final class InboundBody implements HttpBody, RawBody {
    private static final Logger log = LoggerFactory.getLogger(InboundBody.class);
    static final int HIGH_WATERMARK = 64 * 1024;

    private final EventExecutor loop;
    private final BodyFlow flow;
    private final long contentLength;
    /**
     * The oldest chunk waiting for demand, or {@code null}; the later ones wait in {@link #later}, made only when a
     * second chunk waits: most bodies arrive and are read one chunk at a time, and need no deque.
     */
    private ByteBuf first;

    private ArrayDeque<ByteBuf> later;
    private long queuedBytes;
    private HttpHeaders trailers;
    private Throwable failure;
    private CompletableFuture<HttpHeaders> trailersFuture;
    private ByteBufSubscriber subscriber;
    private boolean subscribed;
    private boolean demanded;
    private long demand;
    private boolean terminated;
    private boolean discarding;
    private boolean delivering;
    private boolean paused;

    public InboundBody(EventExecutor loop, BodyFlow flow, long contentLength) {
        this.loop = loop;
        this.flow = flow;
        this.contentLength = contentLength;
    }

    /** Adds a received chunk, taking ownership of it. */
    public void onChunk(ByteBuf chunk) {
        if (discarding || ended()) {
            chunk.release();
            return;
        }
        enqueue(chunk);
        queuedBytes += chunk.readableBytes();
        deliver();
    }

    /** Marks the body complete, with its trailer fields. */
    public void onEnd(HttpHeaders trailers) {
        if (ended()) {
            return;
        }
        this.trailers = trailers;
        deliver();
        if (discarding) {
            completeTrailers();
        }
    }

    /** Fails the body: the connection broke or a limit was passed. */
    public void onFailure(Throwable cause) {
        if (ended()) {
            return;
        }
        failure = cause;
        releaseQueue();
        deliver();
        if (trailersFuture != null) {
            trailersFuture.completeExceptionally(cause);
        }
    }

    /**
     * The exchange is over: releases what is queued and every chunk still to arrive, and resumes
     * reading so the rest of the body is drained from the socket.
     */
    public void discard() {
        if (discarding) {
            return;
        }
        discarding = true;
        releaseQueue();
        ByteBufSubscriber current = subscriber;
        if (current != null && !terminated) {
            terminated = true;
            subscriber = null;
            current.onError(new IllegalStateException("the exchange ended before the request body was read"));
        }
        if (trailers != null) {
            completeTrailers();
        }
        updateFlow();
    }

    /** Whether the whole body has been received. */
    public boolean isReceived() {
        return trailers != null;
    }

    /** Whether anybody subscribed to the body. */
    public boolean isSubscribed() {
        return subscribed;
    }

    /** Only on the body's event loop, where its state lives: from any other thread, {@code null}. */
    @Override
    public ByteBuf takeReceived() {
        if (!loop.inEventLoop()
                || subscribed
                || discarding
                || failure != null
                || trailers == null
                || !trailers.isEmpty()) {
            return null;
        }
        subscribed = true;
        terminated = true;
        ByteBuf whole = takeQueue();
        completeTrailers();
        updateFlow();
        return whole;
    }

    @Override
    public long contentLength() {
        return contentLength;
    }

    @Override
    public CompletionStage<HttpHeaders> trailers() {
        CompletableFuture<HttpHeaders> future = new CompletableFuture<>();
        onLoop(() -> {
            if (trailersFuture == null) {
                trailersFuture = new CompletableFuture<>();
                if (failure != null) {
                    trailersFuture.completeExceptionally(failure);
                } else if (trailers != null && (terminated || discarding)) {
                    trailersFuture.complete(trailers);
                }
            }
            trailersFuture.whenComplete((t, e) -> {
                if (e != null) {
                    future.completeExceptionally(e);
                } else {
                    future.complete(t);
                }
            });
        });
        return future;
    }

    @Override
    public void subscribe(Flow.Subscriber<? super HttpData> subscriber) {
        subscribeRaw(new HttpDataSubscriber(subscriber));
    }

    @Override
    public void subscribeRaw(ByteBufSubscriber newSubscriber) {
        // Directly when on the loop, as a server's own subscriber is: no task per request body.
        if (loop.inEventLoop()) {
            subscribeOnLoop(newSubscriber);
        } else {
            loop.execute(() -> subscribeOnLoop(newSubscriber));
        }
    }

    private void subscribeOnLoop(ByteBufSubscriber newSubscriber) {
        if (subscribed) {
            newSubscriber.onSubscribe(Subscriptions.NOOP);
            newSubscriber.onError(new IllegalStateException("a body can be subscribed once"));
            return;
        }
        subscribed = true;
        if (discarding) {
            newSubscriber.onSubscribe(Subscriptions.NOOP);
            // A body that failed first says why (a malformed chunk, say), so a late reader can tell whose fault it
            // was.
            newSubscriber.onError(
                    failure != null
                            ? failure
                            : new IllegalStateException("the exchange ended before the body was read"));
            return;
        }
        subscriber = newSubscriber;
        newSubscriber.onSubscribe(new Subscription());
        deliver();
    }

    private boolean ended() {
        return trailers != null || failure != null;
    }

    private void deliver() {
        if (delivering) {
            return;
        }
        delivering = true;
        try {
            drainToSubscriber();
        } catch (Throwable t) {
            log.warn("A body subscriber threw; the body is discarded", t);
            terminated = true;
            subscriber = null;
            discarding = true;
            releaseQueue();
        } finally {
            delivering = false;
        }
        updateFlow();
    }

    private void drainToSubscriber() {
        while (subscriber != null && !terminated) {
            if (first != null) {
                if (demand == 0) {
                    return;
                }
                ByteBuf chunk = dequeue();
                queuedBytes -= chunk.readableBytes();
                demand--;
                subscriber.onNext(chunk);
            } else if (failure != null) {
                terminate().onError(failure);
            } else if (trailers != null) {
                terminate().onComplete(trailers);
                completeTrailers();
            } else {
                return;
            }
        }
    }

    private ByteBufSubscriber terminate() {
        ByteBufSubscriber current = subscriber;
        terminated = true;
        subscriber = null;
        return current;
    }

    private void completeTrailers() {
        if (trailersFuture != null) {
            trailersFuture.complete(trailers);
        }
    }

    private void updateFlow() {
        boolean behind = !discarding && failure == null && queuedBytes >= HIGH_WATERMARK;
        if (behind && !paused) {
            paused = true;
            flow.pause();
        } else if (paused && (discarding || failure != null || queuedBytes < HIGH_WATERMARK / 2)) {
            paused = false;
            flow.resume();
        }
    }

    private ByteBuf takeQueue() {
        queuedBytes = 0;
        if (first == null) {
            return Unpooled.EMPTY_BUFFER;
        }
        if (later == null || later.isEmpty()) {
            return dequeue();
        }
        CompositeByteBuf whole = first.alloc().compositeBuffer(1 + later.size());
        ByteBuf chunk;
        while ((chunk = dequeue()) != null) {
            whole.addComponent(true, chunk);
        }
        return whole;
    }

    private void releaseQueue() {
        ByteBuf chunk;
        while ((chunk = dequeue()) != null) {
            chunk.release();
        }
        queuedBytes = 0;
    }

    private void enqueue(ByteBuf chunk) {
        if (first == null) {
            first = chunk;
            return;
        }
        if (later == null) {
            later = new ArrayDeque<>(4);
        }
        later.add(chunk);
    }

    /** The oldest waiting chunk, or {@code null}. */
    private ByteBuf dequeue() {
        ByteBuf oldest = first;
        if (oldest != null) {
            first = later == null ? null : later.poll();
        }
        return oldest;
    }

    private void onLoop(Runnable task) {
        if (loop.inEventLoop()) {
            task.run();
        } else {
            loop.execute(task);
        }
    }

    private final class Subscription implements Flow.Subscription {
        @Override
        public void request(long n) {
            // Directly when on the loop, as the framing's writers ask for each chunk: no task per chunk.
            if (loop.inEventLoop()) {
                requestOnLoop(n);
            } else {
                loop.execute(() -> requestOnLoop(n));
            }
        }

        private void requestOnLoop(long n) {
            if (terminated) {
                return;
            }
            if (n <= 0) {
                terminate().onError(new IllegalArgumentException("n: " + n + " (expected: > 0, rule 3.9)"));
                discard();
                return;
            }
            demand = demand + n < 0 ? Long.MAX_VALUE : demand + n;
            if (!demanded) {
                demanded = true;
                flow.demanded();
            }
            deliver();
        }

        @Override
        public void cancel() {
            // Directly when on the loop, as the framing's writers cancel: no task per body.
            if (loop.inEventLoop()) {
                cancelOnLoop();
            } else {
                loop.execute(this::cancelOnLoop);
            }
        }

        private void cancelOnLoop() {
            if (!terminated) {
                terminated = true;
                subscriber = null;
                discard();
            }
        }
    }
}
