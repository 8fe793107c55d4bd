package io.parry.testing;

import java.util.concurrent.BlockingQueue;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.Flow;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;

/**
 * Subscribes to a publisher, such as a WebSocket's messages, and asks for its items one at a time as
 * the test takes them, so a test sees the publisher's back-pressure as a client would.
 *
 * <pre>{@code
 * MessageQueue<WebSocketMessage> messages = MessageQueue.of(socket.messages());
 * assertThat(messages.next().text()).isEqualTo("hello");
 * }</pre>
 *
 * <p>{@link #next()} is for the test thread; the publisher may call the subscriber methods from any one
 * thread at a time.
 *
 * @param <T> the items' type
 */
public final class MessageQueue<T> implements Flow.Subscriber<T> {
    private final BlockingQueue<T> items = new LinkedBlockingQueue<>();
    private final CompletableFuture<Void> ended = new CompletableFuture<>();
    private volatile Flow.Subscription subscription;

    private MessageQueue() {}

    /** Subscribes a new queue to the publisher. */
    public static <T> MessageQueue<T> of(Flow.Publisher<T> publisher) {
        MessageQueue<T> queue = new MessageQueue<>();
        publisher.subscribe(queue);
        return queue;
    }

    /** The next item, asked for now, waiting up to 5 seconds; an {@link AssertionError} if none comes. */
    public T next() throws InterruptedException {
        while (subscription == null) {
            Thread.onSpinWait();
        }
        subscription.request(1);
        T next = items.poll(5, TimeUnit.SECONDS);
        if (next == null) {
            throw new AssertionError("no message within 5 s");
        }
        return next;
    }

    /**
     * Asks for every item still to come, so that a WebSocket reads on to its peer's close frame, and returns
     * {@link #ended()}.
     */
    public CompletableFuture<Void> drain() {
        while (subscription == null) {
            Thread.onSpinWait();
        }
        subscription.request(Long.MAX_VALUE);
        return ended;
    }

    /** Completes when the publisher completes, or exceptionally with its error. */
    public CompletableFuture<Void> ended() {
        return ended;
    }

    @Override
    public void onSubscribe(Flow.Subscription subscription) {
        this.subscription = subscription;
    }

    @Override
    public void onNext(T item) {
        items.add(item);
    }

    @Override
    public void onError(Throwable throwable) {
        ended.completeExceptionally(throwable);
    }

    @Override
    public void onComplete() {
        ended.complete(null);
    }
}
