package io.parry.transport.spi;

import io.netty.channel.Channel;
import io.parry.http.HttpBody;
import io.parry.http.HttpData;
import io.parry.http.HttpHeaders;
import io.parry.http.spi.Subscriptions;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.Flow;

/**
 * The body of a {@code 101 Switching Protocols} response: no bytes, but the connection itself, handed
 * over once the response head has left. A WebSocket endpoint and the proxy's WebSocket relay answer
 * an upgrade with it.
 *
 * <p>The server accepts it only as the body of a 101 response that has an {@code Upgrade} field, to
 * an HTTP/1.1 request without a body that asked for an upgrade ({@code Connection: upgrade} and an
 * {@code Upgrade} field; RFC 9110, section 7.8). Anything else is a server error: the client gets 500
 * and {@link #abandoned} is called. The server adds {@code Connection: upgrade} itself.
 *
 * <p>Exactly one of {@link #takeOver} and {@link #abandoned} is called, once, on the connection's event
 * loop. Once {@link #takeOver} is called the exchange is complete (logged with status 101) and no
 * further request is read from the connection; the channel, its reading and its closing are the
 * taker's. The server still counts the connection (the connection limit, a graceful stop waits for it)
 * until the channel closes, and tells the taker when it stops ({@link #drain}, {@link #forceClose}).
 */
public interface ConnectionTakeover extends HttpBody {
    /**
     * The 101 head was written and flushed, and the HTTP/1.1 handlers left the pipeline: the channel
     * is the caller's. Handlers added here with {@code addLast} receive every byte the client sent after
     * its request, including bytes that arrived with it. The channel reads automatically when this is
     * called; an exception thrown here closes it.
     */
    void takeOver(Channel channel);

    /**
     * The connection will not be handed over: the response was refused (see the class comment), its
     * head could not be written, or the connection closed first. Releases what was kept for the
     * connection.
     */
    void abandoned(Throwable cause);

    /**
     * The server began a graceful stop: end the connection cleanly before the stop's deadline (a
     * WebSocket session sends close 1001 and waits for the close handshake). The default does
     * nothing, so the connection stays open until the deadline. Called on the channel's event loop.
     */
    default void drain() {}

    /**
     * The stop's deadline passed: the connection must close now. The default closes the channel; an
     * implementation may write a last message before it closes it. Called on the channel's event loop.
     */
    default void forceClose(Channel channel) {
        channel.close();
    }

    @Override
    default long contentLength() {
        return 0;
    }

    @Override
    default CompletionStage<HttpHeaders> trailers() {
        return CompletableFuture.completedStage(HttpHeaders.empty());
    }

    /** Publishes no bytes: a subscriber completes at once. */
    @Override
    default void subscribe(Flow.Subscriber<? super HttpData> subscriber) {
        subscriber.onSubscribe(Subscriptions.NOOP);
        subscriber.onComplete();
    }
}
