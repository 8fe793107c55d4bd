package io.parry.proxy;

import io.parry.http.HttpBody;
import io.parry.http.HttpData;
import io.parry.http.HttpHeaders;
import io.parry.transport.spi.BodySources;
import io.parry.transport.spi.ByteBufSubscriber;
import io.parry.transport.spi.RawBody;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.Flow;

/**
 * A request body on its way to an upstream that remembers whether anybody began reading it: once the
 * client subscribed, part of a one-shot body may have left, and the request can no longer be retried.
 * Timed, it also remembers when the body ended, so an adaptive limit can leave the client's pace out of
 * the upstream's latency, and tells its {@link Arrival} while the upstream waits for the rest of the body.
 * Buffers pass through without a copy.
 */
final class SentBody implements HttpBody, RawBody {
    private final HttpBody body;
    /** Told how the body arrives, or {@code null} when it is not timed. */
    private final Arrival arrival;

    private volatile boolean subscribed;
    private long endNanos;
    private volatile boolean ended;

    SentBody(HttpBody body, Arrival arrival) {
        this.body = body;
        this.arrival = arrival;
    }

    /** Whether the body was subscribed to. */
    boolean subscribed() {
        return subscribed;
    }

    /** Whether the body, timed, ended in full. */
    boolean ended() {
        return ended;
    }

    /** When the body ended, as {@link System#nanoTime()}; meaningful once {@link #ended()}. */
    long endNanos() {
        return endNanos;
    }

    @Override
    public long contentLength() {
        return body.contentLength();
    }

    @Override
    public CompletionStage<HttpHeaders> trailers() {
        return body.trailers();
    }

    @Override
    public void subscribe(Flow.Subscriber<? super HttpData> subscriber) {
        subscribed = true;
        timeEnd();
        body.subscribe(subscriber);
    }

    @Override
    public void subscribeRaw(ByteBufSubscriber subscriber) {
        subscribed = true;
        timeEnd();
        BodySources.subscribe(body, subscriber);
    }

    private void timeEnd() {
        if (arrival == null) {
            return;
        }
        body.trailers().thenRun(() -> {
            endNanos = System.nanoTime();
            ended = true;
            arrival.bodyEnded();
        });
        if (!ended) {
            arrival.bodyPending();
        }
    }

    /**
     * What a timed body tells as the upstream starts reading it, on the request's event loop, where
     * the server delivers the body.
     */
    interface Arrival {
        /** The upstream started reading the body before the client sent all of it. */
        void bodyPending();

        /** The client sent the last of the body (after {@link #bodyPending()}, if that was told). */
        void bodyEnded();
    }
}
