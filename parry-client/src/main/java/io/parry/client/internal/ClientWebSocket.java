package io.parry.client.internal;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.ByteBufUtil;
import io.netty.buffer.Unpooled;
import io.netty.channel.Channel;
import io.netty.channel.ChannelFuture;
import io.netty.channel.ChannelFutureListener;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelInboundHandlerAdapter;
import io.netty.channel.ChannelOutboundBuffer;
import io.netty.handler.codec.TooLongFrameException;
import io.netty.handler.codec.http.websocketx.BinaryWebSocketFrame;
import io.netty.handler.codec.http.websocketx.CloseWebSocketFrame;
import io.netty.handler.codec.http.websocketx.CorruptedWebSocketFrameException;
import io.netty.handler.codec.http.websocketx.PingWebSocketFrame;
import io.netty.handler.codec.http.websocketx.PongWebSocketFrame;
import io.netty.handler.codec.http.websocketx.TextWebSocketFrame;
import io.netty.handler.codec.http.websocketx.WebSocketFrame;
import io.netty.util.ReferenceCountUtil;
import io.netty.util.concurrent.ScheduledFuture;
import io.parry.client.ConnectionClosedException;
import io.parry.client.WebSocket;
import io.parry.client.WebSocketClose;
import io.parry.client.WebSocketMessage;
import io.parry.http.HttpData;
import io.parry.http.HttpHeaders;
import java.util.ArrayDeque;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.Flow;
import java.util.concurrent.TimeUnit;

/**
 * A {@link WebSocket} as the last handler of its connection, behind Netty's frame codec and
 * aggregator. Each read is asked for ({@code ctx.read()}) while the messages waiting for the subscriber's demand hold
 * fewer than {@link #MAX_HELD_BYTES}: control frames are seen whatever the demand (RFC 6455, section 5.5: a close is
 * answered, a ping gets its pong), and a reader that asks for nothing stops the reading once that much waits.
 *
 * <p>Reading also stops while the connection takes no more writes, and the pings read meanwhile (the rest of the read
 * that made it so) get one pong, for the last of them, once it takes writes again: a peer that floods pings and never
 * reads cannot make the outbound buffer grow past its high water mark by more than one pong. After a close is sent no
 * ping is answered, and after the peer's close nothing more is read.
 *
 * <p>Every close this side sends, its own or its answer to the peer's, closes the socket if the connection has not
 * closed within the close timeout: a peer that never reads leaves the close's write pending, and one that never
 * answers leaves the handshake open (RFC 6455, section 7.1.1 lets the client close the TCP connection itself).
 * State is confined to the event loop; methods called from other threads go there.
 */
final class ClientWebSocket extends ChannelInboundHandlerAdapter implements WebSocket {
    /** What the messages nobody asked for yet may hold before reading stops, as a server's request body pauses. */
    static final int MAX_HELD_BYTES = 64 * 1024;
    /**
     * How long a client that is closing waits at most for the peer's answer to its close: {@code HttpClient.close}
     * waits for these handshakes and then for its event loops to stop, 5 seconds in all.
     */
    private static final long GOING_AWAY_WAIT_NANOS = TimeUnit.SECONDS.toNanos(2);

    private final HttpHeaders handshakeHeaders;
    private final long closeTimeoutNanos;
    private final CompletableFuture<WebSocketClose> closed = new CompletableFuture<>();
    private final ArrayDeque<WebSocketMessage> received = new ArrayDeque<>();
    private final Flow.Publisher<WebSocketMessage> messages = this::subscribe;
    private ChannelHandlerContext ctx;
    private Channel channel;
    private Flow.Subscriber<? super WebSocketMessage> subscriber;
    private boolean subscribed;
    private long demand;
    /** The bytes of the messages in {@link #received}. */
    private long heldBytes;
    /** The data of the last ping read while the connection took no writes, answered once it does. */
    private ByteBuf unansweredPing;

    private boolean closeSent;
    /** Closes the socket once a close sent has waited its time; {@code null} until a close is sent. */
    private ScheduledFuture<?> closeTimer;

    private WebSocketClose closeReceived;
    private boolean ended;

    ClientWebSocket(HttpHeaders handshakeHeaders, long closeTimeoutNanos) {
        this.handshakeHeaders = handshakeHeaders;
        this.closeTimeoutNanos = closeTimeoutNanos;
    }

    @Override
    public HttpHeaders handshakeHeaders() {
        return handshakeHeaders;
    }

    @Override
    public Flow.Publisher<WebSocketMessage> messages() {
        return messages;
    }

    @Override
    public CompletionStage<Void> sendText(String text) {
        return write(new TextWebSocketFrame(text));
    }

    @Override
    public CompletionStage<Void> sendBinary(byte[] bytes) {
        return write(new BinaryWebSocketFrame(Unpooled.copiedBuffer(bytes)));
    }

    @Override
    public CompletionStage<Void> ping(byte[] data) {
        if (data.length > 125) {
            throw new IllegalArgumentException("data: " + data.length + " bytes (expected: <= 125)");
        }
        return write(new PingWebSocketFrame(Unpooled.copiedBuffer(data)));
    }

    @Override
    public CompletionStage<Void> close(int code, String reason) {
        CompletableFuture<Void> sent = new CompletableFuture<>();
        channel.eventLoop().execute(() -> {
            if (closeSent || !channel.isActive()) {
                sent.complete(null);
                return;
            }
            complete(sendClose(new CloseWebSocketFrame(code, reason), closeTimeoutNanos), sent);
            readIfWanted();
        });
        return sent;
    }

    /**
     * The client is closing: sends a close with 1001, going away (RFC 6455, section 7.4.1), unless one was sent, and
     * closes the socket if the peer has not answered within the close timeout, or {@link #GOING_AWAY_WAIT_NANOS} if
     * that is shorter. Called on the loop.
     */
    void goAway() {
        if (!channel.isActive()) {
            return;
        }
        long wait = Math.min(closeTimeoutNanos, GOING_AWAY_WAIT_NANOS);
        if (!closeSent) {
            sendClose(new CloseWebSocketFrame(1001, ""), wait);
            readIfWanted();
        } else {
            closeWithin(wait);
        }
    }

    @Override
    public void abort() {
        channel.close();
    }

    @Override
    public CompletionStage<WebSocketClose> closed() {
        return closed;
    }

    @Override
    public boolean isWritable() {
        return channel.isWritable();
    }

    /** The bytes the connection holds to write, each write's overhead included as Netty counts it; 0 once closed. */
    long pendingWriteBytes() {
        ChannelOutboundBuffer buffer = channel.unsafe().outboundBuffer();
        return buffer == null ? 0 : buffer.totalPendingWriteBytes();
    }

    @Override
    public void handlerAdded(ChannelHandlerContext ctx) {
        this.ctx = ctx;
        this.channel = ctx.channel();
    }

    @Override
    public void channelRead(ChannelHandlerContext ctx, Object msg) {
        if (msg instanceof TextWebSocketFrame || msg instanceof BinaryWebSocketFrame) {
            WebSocketFrame frame = (WebSocketFrame) msg;
            if (closeSent && heldBytes >= MAX_HELD_BYTES) {
                frame.release(); // Read on only for the peer's answer to our close: what nobody asks for is dropped.
                return;
            }
            byte[] bytes = ByteBufUtil.getBytes(frame.content());
            frame.release();
            received.add(new WebSocketMessage(msg instanceof TextWebSocketFrame, HttpData.wrap(bytes)));
            heldBytes += bytes.length;
            deliver();
        } else if (msg instanceof PingWebSocketFrame ping) {
            answer(ping.content());
        } else if (msg instanceof CloseWebSocketFrame) {
            closeReceived((CloseWebSocketFrame) msg);
        } else {
            ReferenceCountUtil.release(msg);
        }
    }

    @Override
    public void channelReadComplete(ChannelHandlerContext ctx) {
        readIfWanted();
    }

    @Override
    public void channelWritabilityChanged(ChannelHandlerContext ctx) {
        if (channel.isWritable()) {
            answerHeldPing();
            readIfWanted();
        }
        ctx.fireChannelWritabilityChanged();
    }

    @Override
    public void channelInactive(ChannelHandlerContext ctx) {
        dropHeldPing();
        if (closeTimer != null) {
            closeTimer.cancel(false);
        }
        WebSocketClose close = closeReceived != null ? closeReceived : new WebSocketClose(WebSocketClose.ABNORMAL, "");
        ended = true;
        deliver();
        closed.complete(close);
    }

    /** A frame too large, or one that breaks the protocol, closes with 1009 or 1002 (RFC 6455, section 7.4.1). */
    @Override
    public void exceptionCaught(ChannelHandlerContext ctx, Throwable cause) {
        int code = cause instanceof TooLongFrameException
                ? 1009
                : cause instanceof CorruptedWebSocketFrameException ? 1002 : 1011;
        if (closeSent || !ctx.channel().isActive()) {
            ctx.close();
            return;
        }
        sendClose(new CloseWebSocketFrame(code, ""), closeTimeoutNanos).addListener(ChannelFutureListener.CLOSE);
    }

    @Override
    public void handlerRemoved(ChannelHandlerContext ctx) {
        dropHeldPing();
    }

    /**
     * RFC 6455, section 5.5.2: a pong carries the ping's data. While the connection takes no writes the ping is held
     * instead, in place of any held before it: section 5.5.3 lets only the most recent ping be answered.
     */
    private void answer(ByteBuf data) {
        if (closeSent) {
            data.release(); // Section 5.5.1: after its close an endpoint sends nothing more but waits for the answer.
        } else if (channel.isWritable()) {
            ctx.writeAndFlush(new PongWebSocketFrame(data));
        } else {
            dropHeldPing();
            unansweredPing = Unpooled.copiedBuffer(data); // Not a slice: that would pin the whole read buffer.
            data.release();
        }
    }

    private void answerHeldPing() {
        ByteBuf data = unansweredPing;
        if (data != null) {
            unansweredPing = null;
            answer(data);
        }
    }

    private void dropHeldPing() {
        if (unansweredPing != null) {
            unansweredPing.release();
            unansweredPing = null;
        }
    }

    private void closeReceived(CloseWebSocketFrame frame) {
        int code = frame.statusCode();
        closeReceived = new WebSocketClose(code < 0 ? 1005 : code, code < 0 ? "" : frame.reasonText());
        frame.release();
        if (closeSent) {
            ctx.close();
            return;
        }
        // RFC 6455, section 5.5.1: the answer typically echoes the status code received.
        CloseWebSocketFrame answer = code < 0 ? new CloseWebSocketFrame() : new CloseWebSocketFrame(code, "");
        sendClose(answer, closeTimeoutNanos).addListener(ChannelFutureListener.CLOSE);
    }

    /** Writes this side's only close, and closes the socket if the connection is still open after {@code wait}. */
    private ChannelFuture sendClose(CloseWebSocketFrame frame, long wait) {
        closeSent = true;
        closeWithin(wait);
        return ctx.writeAndFlush(frame);
    }

    /** Closes the socket after {@code wait}, unless a timer set before closes it sooner. */
    private void closeWithin(long wait) {
        if (closeTimer != null && closeTimer.getDelay(TimeUnit.NANOSECONDS) <= wait) {
            return;
        }
        if (closeTimer != null) {
            closeTimer.cancel(false);
        }
        closeTimer = ctx.executor().schedule(() -> ctx.close(), wait, TimeUnit.NANOSECONDS);
    }

    private void subscribe(Flow.Subscriber<? super WebSocketMessage> subscriber) {
        channel.eventLoop().execute(() -> {
            if (subscribed) {
                subscriber.onSubscribe(new Flow.Subscription() {
                    @Override
                    public void request(long n) {}

                    @Override
                    public void cancel() {}
                });
                subscriber.onError(new IllegalStateException("messages() has a subscriber already"));
                return;
            }
            subscribed = true;
            this.subscriber = subscriber;
            subscriber.onSubscribe(new Subscription());
            deliver();
        });
    }

    private void deliver() {
        Flow.Subscriber<? super WebSocketMessage> to = subscriber;
        while (to != null && demand > 0 && !received.isEmpty()) {
            demand--;
            WebSocketMessage next = received.poll();
            heldBytes -= next.data().length();
            to.onNext(next);
            to = subscriber;
        }
        if (to != null && ended && received.isEmpty()) {
            subscriber = null;
            if (closeReceived != null) {
                to.onComplete();
            } else {
                to.onError(new ConnectionClosedException(
                        "the WebSocket connection closed without a close frame", true, null));
            }
        }
    }

    /**
     * Reads on, with or without demand, while the messages waiting for the subscriber hold less than {@link
     * #MAX_HELD_BYTES} and the connection takes writes, so a close or a ping is seen at once; and after this side sent
     * its close, until the peer's answer comes: nothing read then is answered, so writability does not matter.
     */
    void readIfWanted() {
        boolean wanted = closeSent ? closeReceived == null : heldBytes < MAX_HELD_BYTES && channel.isWritable();
        if (wanted && channel.isActive()) {
            ctx.read();
        }
    }

    private CompletionStage<Void> write(WebSocketFrame frame) {
        CompletableFuture<Void> written = new CompletableFuture<>();
        complete(channel.writeAndFlush(frame), written);
        return written;
    }

    private static void complete(ChannelFuture write, CompletableFuture<Void> written) {
        write.addListener(done -> {
            if (done.isSuccess()) {
                written.complete(null);
            } else {
                written.completeExceptionally(
                        new ConnectionClosedException("the WebSocket frame was not written", true, done.cause()));
            }
        });
    }

    private final class Subscription implements Flow.Subscription {
        @Override
        public void request(long n) {
            channel.eventLoop().execute(() -> {
                if (subscriber == null) {
                    return;
                }
                if (n <= 0) {
                    Flow.Subscriber<? super WebSocketMessage> to = subscriber;
                    subscriber = null;
                    to.onError(new IllegalArgumentException("n: " + n + " (expected: > 0)"));
                    return;
                }
                demand = demand + n < 0 ? Long.MAX_VALUE : demand + n;
                deliver();
                readIfWanted();
            });
        }

        @Override
        public void cancel() {
            channel.eventLoop().execute(() -> {
                subscriber = null;
                received.clear();
                heldBytes = 0;
                close(1001, "");
            });
        }
    }
}
