package io.parry.client;

import java.util.concurrent.BlockingQueue;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.Flow;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;

/** Subscribes to a WebSocket's messages, asking for them one at a time as the test takes them. */
final class MessageQueue implements Flow.Subscriber<WebSocketMessage> {
    private final BlockingQueue<WebSocketMessage> messages = new LinkedBlockingQueue<>();
    final CompletableFuture<Void> ended = new CompletableFuture<>();
    private Flow.Subscription subscription;

    static MessageQueue of(WebSocket socket) {
        MessageQueue queue = new MessageQueue();
        socket.messages().subscribe(queue);
        return queue;
    }

    /** The next message, asked for now, waiting up to 5 seconds. */
    WebSocketMessage next() throws InterruptedException {
        while (subscription == null) {
            Thread.onSpinWait();
        }
        subscription.request(1);
        WebSocketMessage next = messages.poll(5, TimeUnit.SECONDS);
        if (next == null) {
            throw new AssertionError("no message within 5 s");
        }
        return next;
    }

    @Override
    public void onSubscribe(Flow.Subscription subscription) {
        this.subscription = subscription;
    }

    @Override
    public void onNext(WebSocketMessage item) {
        messages.add(item);
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
