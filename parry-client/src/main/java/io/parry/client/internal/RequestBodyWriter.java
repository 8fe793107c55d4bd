package io.parry.client.internal;

import io.netty.buffer.ByteBuf;
import io.netty.util.concurrent.EventExecutor;
import io.parry.http.HttpHeaders;
import io.parry.transport.spi.ByteBufSubscriber;
import java.util.concurrent.Flow;
import java.util.concurrent.RejectedExecutionException;

/**
 * Pulls a request body onto the connection one chunk at a time, asking for the next only while the
 * channel is writable: a slow upstream pauses the body's source, and for a body arriving from a
 * server's client, that pauses reading from the client. Signals may come from any thread and are
 * handled on the connection's event loop.
 */
final class RequestBodyWriter implements ByteBufSubscriber {
    private final CallStream connection;
    private final ClientCall call;
    private final EventExecutor loop;
    private final long declaredLength;
    private Flow.Subscription subscription;
    private boolean requested;
    private boolean done;
    private long written;

    /** @param declaredLength the length announced in {@code Content-Length}, or -1 for chunked */
    RequestBodyWriter(CallStream connection, ClientCall call, EventExecutor loop, long declaredLength) {
        this.connection = connection;
        this.call = call;
        this.loop = loop;
        this.declaredLength = declaredLength;
    }

    @Override
    public void onSubscribe(Flow.Subscription subscription) {
        if (!onLoop(() -> {
            this.subscription = subscription;
            if (done) {
                subscription.cancel();
            } else {
                requestMore();
            }
        })) {
            subscription.cancel();
        }
    }

    /** Asks for one more chunk when none is on its way and the channel can take it. */
    void requestMore() {
        if (!done && subscription != null && !requested && connection.isWritable(call)) {
            requested = true;
            subscription.request(1);
        }
    }

    @Override
    public void onNext(ByteBuf chunk) {
        if (loop.inEventLoop()) {
            write(chunk);
        } else if (!onLoop(() -> write(chunk))) {
            chunk.release(); // The client closed and its event loops stopped.
        }
    }

    @Override
    public void onComplete(HttpHeaders trailers) {
        onLoop(() -> {
            if (done) {
                return;
            }
            if (declaredLength >= 0 && written != declaredLength) {
                fail(new IllegalStateException("request body of " + written + " bytes, declared " + declaredLength));
                return;
            }
            done = true;
            connection.writeBodyEnd(call, trailers);
        });
    }

    @Override
    public void onError(Throwable cause) {
        onLoop(() -> fail(cause));
    }

    /** Stops the body: the exchange ended without it. */
    void cancel() {
        if (!done) {
            done = true;
            if (subscription != null) {
                subscription.cancel();
            }
        }
    }

    private void write(ByteBuf chunk) {
        requested = false;
        if (done) {
            chunk.release();
            return;
        }
        written += chunk.readableBytes();
        if (declaredLength >= 0 && written > declaredLength) {
            chunk.release();
            fail(new IllegalStateException("request body longer than its declared " + declaredLength + " bytes"));
            return;
        }
        connection.writeBodyChunk(call, chunk);
        requestMore();
    }

    private void fail(Throwable cause) {
        if (done) {
            return;
        }
        cancel();
        connection.requestBodyFailed(call, cause);
    }

    /**
     * Runs the task on the loop; false when the loop has stopped (the client closed), in which case
     * the exchange is over and the signal is dropped rather than thrown at the publisher.
     */
    private boolean onLoop(Runnable task) {
        if (loop.inEventLoop()) {
            task.run();
            return true;
        }
        try {
            loop.execute(task);
            return true;
        } catch (RejectedExecutionException e) {
            return false;
        }
    }
}
