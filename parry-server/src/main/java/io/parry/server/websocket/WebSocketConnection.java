package io.parry.server.websocket;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.Unpooled;
import io.netty.channel.Channel;
import io.netty.channel.ChannelFuture;
import io.netty.channel.ChannelFutureListener;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelInboundHandlerAdapter;
import io.netty.channel.ChannelOutboundBuffer;
import io.netty.channel.socket.DuplexChannel;
import io.netty.handler.codec.DecoderException;
import io.netty.handler.codec.compression.DecompressionException;
import io.netty.handler.codec.http.websocketx.BinaryWebSocketFrame;
import io.netty.handler.codec.http.websocketx.CloseWebSocketFrame;
import io.netty.handler.codec.http.websocketx.ContinuationWebSocketFrame;
import io.netty.handler.codec.http.websocketx.CorruptedWebSocketFrameException;
import io.netty.handler.codec.http.websocketx.PingWebSocketFrame;
import io.netty.handler.codec.http.websocketx.PongWebSocketFrame;
import io.netty.handler.codec.http.websocketx.TextWebSocketFrame;
import io.netty.handler.codec.http.websocketx.WebSocketFrame;
import io.netty.util.ReferenceCountUtil;
import io.netty.util.concurrent.Future;
import io.parry.http.HttpData;
import io.parry.http.spi.Subscriptions;
import java.io.IOException;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.util.ArrayDeque;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.Flow;
import java.util.concurrent.TimeUnit;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * One WebSocket session on its connection: the last handler of the pipeline, after the frame codec and
 * the permessage-deflate codec. It answers pings, joins fragments into messages within the limits,
 * checks text is UTF-8, runs the close handshake (RFC 6455, section 7), delivers messages as its
 * subscriber asks for them (stopping socket reads while one waits, or while the client does not read
 * what is sent to it, and then answering only the last ping read), and closes idle sessions.
 *
 * <p>Its state is touched only on the channel's event loop; the session's methods hop there.
 */
final class WebSocketConnection extends ChannelInboundHandlerAdapter
        implements WebSocketSession, Flow.Publisher<WebSocketMessage>, Flow.Subscription {
    private static final Logger log = LoggerFactory.getLogger(WebSocketConnection.class);
    private static final long MIN_TICK_NANOS = TimeUnit.MILLISECONDS.toNanos(10);

    private final SessionSetup setup;
    private final WebSocketOptions options;
    private final WebSocketCounters counters;
    private final Channel channel;
    private final CompletableFuture<WebSocketClose> closed = new CompletableFuture<>();
    private final ArrayDeque<WebSocketMessage> ready = new ArrayDeque<>(2);
    private final Utf8Validator utf8 = new Utf8Validator();
    private final MessageBuffer message = new MessageBuffer();

    private boolean messageIsText;
    private long messageBytes;
    private boolean sendingFragments;

    private Flow.Subscriber<? super WebSocketMessage> subscriber;
    private long demand;
    private boolean cancelled;
    /** No more messages will be queued: the close handshake began, or the connection ended. */
    private boolean inputEnded;

    private Throwable inputFailure;
    private boolean subscriberDone;

    private volatile boolean closeSent;
    private boolean closeReceived;
    private WebSocketEnding ending;
    private WebSocketClose result;
    private Future<?> closeTimer;
    private Future<?> idleTimer;
    private long lastReadNanos;
    private long lastDataNanos;
    private long lastPingNanos;
    /** The data of the last ping read while the client took no writes, answered once it does. */
    private ByteBuf unansweredPing;

    WebSocketConnection(SessionSetup setup, Channel channel) {
        this.setup = setup;
        this.options = setup.options();
        this.counters = setup.counters();
        this.channel = channel;
    }

    /** The session begins: counted, timed, and handed to the application. Called on the event loop. */
    void open() {
        long now = System.nanoTime();
        lastReadNanos = now;
        lastDataNanos = now;
        counters.sessionOpened();
        long tick = tickNanos();
        if (tick > 0) {
            idleTimer = channel.eventLoop().scheduleWithFixedDelay(this::checkIdle, tick, tick, TimeUnit.NANOSECONDS);
        }
        try {
            setup.onOpen().accept(this);
        } catch (RuntimeException e) {
            log.warn("WebSocket session {} failed to open", setup.id(), e);
            fail(WebSocketClose.INTERNAL_ERROR, "", WebSocketEnding.INTERNAL_ERROR);
        }
    }

    /** The server is stopping: closes with 1001 and waits for the client's close frame. */
    void drain() {
        startClose(WebSocketClose.GOING_AWAY, "server stopping", WebSocketEnding.SHUTDOWN);
    }

    // ---- inbound

    @Override
    public void channelRead(ChannelHandlerContext ctx, Object msg) {
        if (!(msg instanceof WebSocketFrame frame)) {
            ReferenceCountUtil.release(msg);
            return;
        }
        lastReadNanos = System.nanoTime();
        try {
            onFrame(frame);
        } finally {
            frame.release();
        }
    }

    private void onFrame(WebSocketFrame frame) {
        if (closeReceived || !channel.isActive()) {
            return;
        }
        if (frame.rsv() != 0) {
            // RFC 6455, section 5.2: a reserved bit no negotiated extension defines.
            fail(WebSocketClose.PROTOCOL_ERROR, "reserved bits set", WebSocketEnding.PROTOCOL_ERROR);
        } else if (frame instanceof PingWebSocketFrame) {
            if (!closeSent) {
                answerPing(frame.content());
            }
        } else if (frame instanceof CloseWebSocketFrame close) {
            onClose(close);
        } else if (!(frame instanceof PongWebSocketFrame) && !closeSent) {
            onData(frame);
        }
    }

    /**
     * RFC 6455, section 5.5.2: a pong carries the ping's data. While the client takes no writes the ping is kept
     * instead, in place of any kept before it (section 5.5.3 lets only the most recent be answered): the rest of the
     * read that stopped the reading cannot queue a pong per ping past the write buffer's high water mark.
     */
    private void answerPing(ByteBuf data) {
        if (channel.isWritable()) {
            channel.writeAndFlush(new PongWebSocketFrame(data.retain()));
        } else {
            dropUnansweredPing();
            unansweredPing = Unpooled.copiedBuffer(data); // Not a slice: that would pin the whole read buffer.
        }
    }

    private void dropUnansweredPing() {
        if (unansweredPing != null) {
            unansweredPing.release();
            unansweredPing = null;
        }
    }

    private void onData(WebSocketFrame frame) {
        if (!(frame instanceof ContinuationWebSocketFrame)) {
            messageIsText = frame instanceof TextWebSocketFrame;
            messageBytes = 0;
            utf8.reset();
        }
        ByteBuf content = frame.content();
        int size = content.readableBytes();
        messageBytes += size;
        if (size > options.maxFrameSize() || messageBytes > options.maxMessageSize()) {
            fail(WebSocketClose.TOO_BIG, "message too big", WebSocketEnding.TOO_BIG);
            return;
        }
        boolean last = frame.isFinalFragment();
        if (messageIsText && (!utf8.accept(content) || (last && !utf8.isComplete()))) {
            fail(WebSocketClose.INVALID_PAYLOAD, "invalid UTF-8", WebSocketEnding.INVALID_UTF8);
            return;
        }
        if (options.streamFragments()) {
            queue(WebSocketMessage.of(messageIsText, MessageBuffer.copy(content), last));
        } else if (last && messageBytes == size) {
            queue(WebSocketMessage.of(messageIsText, MessageBuffer.copy(content), true));
        } else {
            message.append(content);
            if (last) {
                queue(WebSocketMessage.of(messageIsText, message.take(), true));
            }
        }
    }

    /** The client's close frame: answers it if the server has not closed yet, then closes the connection. */
    private void onClose(CloseWebSocketFrame close) {
        closeReceived = true;
        int code = close.statusCode();
        if (!closeSent) {
            // RFC 6455, section 5.5.1: echo the status code; the server closes the TCP connection first (7.1.1).
            result = new WebSocketClose(code < 0 ? WebSocketClose.NO_STATUS : code, close.reasonText(), true);
            endWith(WebSocketEnding.CLIENT_CLOSED);
            closeSent = true;
            CloseWebSocketFrame answer = code < 0 ? new CloseWebSocketFrame() : new CloseWebSocketFrame(code, "");
            closeAfter(channel.writeAndFlush(answer));
        } else {
            channel.close();
        }
        endInput(null);
    }

    private void queue(WebSocketMessage received) {
        counters.messageIn();
        if (cancelled) {
            return;
        }
        ready.add(received);
        deliver();
    }

    // ---- delivery to the subscriber

    @Override
    public Flow.Publisher<WebSocketMessage> messages() {
        return this;
    }

    @Override
    public void subscribe(Flow.Subscriber<? super WebSocketMessage> candidate) {
        onLoop(() -> {
            if (subscriber != null || cancelled) {
                Subscriptions.reject(candidate, new IllegalStateException("a session's messages have one subscriber"));
                return;
            }
            subscriber = candidate;
            candidate.onSubscribe(this);
            deliver();
        });
    }

    @Override
    public void request(long n) {
        onLoop(() -> {
            if (subscriber == null || subscriberDone) {
                return;
            }
            if (n <= 0) {
                cancel();
                subscriberDone = true;
                subscriber.onError(new IllegalArgumentException("n: " + n + " (expected: > 0, rule 3.9)"));
                return;
            }
            demand = demand + n < 0 ? Long.MAX_VALUE : demand + n;
            deliver();
        });
    }

    /** The application wants no more messages: they are dropped from now on; the session stays open. */
    @Override
    public void cancel() {
        onLoop(() -> {
            cancelled = true;
            subscriberDone = true;
            ready.clear();
            updateReading();
        });
    }

    private void deliver() {
        while (subscriber != null && !subscriberDone && demand > 0 && !ready.isEmpty()) {
            demand--;
            try {
                subscriber.onNext(ready.poll());
            } catch (RuntimeException e) {
                log.warn("WebSocket session {}: the message subscriber failed", setup.id(), e);
                subscriberDone = true;
                ready.clear();
                fail(WebSocketClose.INTERNAL_ERROR, "", WebSocketEnding.INTERNAL_ERROR);
                return;
            }
        }
        if (ready.isEmpty() && inputEnded && subscriber != null && !subscriberDone) {
            subscriberDone = true;
            if (inputFailure == null) {
                subscriber.onComplete();
            } else {
                subscriber.onError(inputFailure);
            }
        }
        updateReading();
    }

    /**
     * Reads while nothing waits for the subscriber and the client takes what is sent to it, and always
     * once the close handshake began. A client that does not read would otherwise have the session queue
     * without bound what its frames cause: a pong for each ping, an echo for each message.
     */
    private void updateReading() {
        if (channel.isActive()) {
            channel.config().setAutoRead(inputEnded || (ready.isEmpty() && channel.isWritable()));
        }
    }

    @Override
    public void channelWritabilityChanged(ChannelHandlerContext ctx) {
        ByteBuf ping = unansweredPing;
        if (ping != null && channel.isWritable()) {
            unansweredPing = null;
            if (!closeSent) {
                answerPing(ping);
            }
            ping.release();
        }
        updateReading();
        ctx.fireChannelWritabilityChanged();
    }

    private void endInput(Throwable failure) {
        if (!inputEnded) {
            inputEnded = true;
            inputFailure = failure;
            message.clear();
            deliver();
        }
    }

    // ---- sending

    @Override
    public CompletionStage<Void> sendText(String text) {
        return send(WebSocketMessage.text(text));
    }

    @Override
    public CompletionStage<Void> sendBinary(HttpData data) {
        return send(WebSocketMessage.binary(data));
    }

    @Override
    public CompletionStage<Void> send(WebSocketMessage outgoing) {
        CompletableFuture<Void> written = new CompletableFuture<>();
        onLoop(() -> {
            if (refuseSend(written) || sendQueueFull(written, outgoing.data().length())) {
                return;
            }
            ByteBuf content = Unpooled.wrappedBuffer(outgoing.data().asByteBuffer());
            boolean last = outgoing.isLast();
            WebSocketFrame frame;
            if (sendingFragments) {
                frame = new ContinuationWebSocketFrame(last, 0, content);
            } else if (outgoing.isText()) {
                frame = new TextWebSocketFrame(last, 0, content);
            } else {
                frame = new BinaryWebSocketFrame(last, 0, content);
            }
            sendingFragments = !last;
            lastDataNanos = System.nanoTime();
            if (last) {
                counters.messageOut();
            }
            complete(written, channel.writeAndFlush(frame));
        });
        return written;
    }

    @Override
    public CompletionStage<Void> ping(HttpData data) {
        if (data.length() > 125) {
            throw new IllegalArgumentException("ping data: " + data.length() + " bytes (expected: <= 125)");
        }
        CompletableFuture<Void> written = new CompletableFuture<>();
        onLoop(() -> {
            if (!refuseSend(written) && !sendQueueFull(written, data.length())) {
                complete(
                        written,
                        channel.writeAndFlush(new PingWebSocketFrame(Unpooled.wrappedBuffer(data.asByteBuffer()))));
            }
        });
        return written;
    }

    @Override
    public CompletionStage<Void> close(int code, String reason) {
        if (!WebSocketClose.isSendable(code)) {
            throw new IllegalArgumentException("code: " + code + " (expected: 1000-1003, 1007-1014 or 3000-4999)");
        }
        if (reason.getBytes(StandardCharsets.UTF_8).length > 123) {
            throw new IllegalArgumentException("reason: longer than 123 bytes in UTF-8");
        }
        CompletableFuture<Void> written = new CompletableFuture<>();
        onLoop(() -> {
            ChannelFuture sent = startClose(code, reason, WebSocketEnding.SERVER_CLOSED);
            if (sent == null) {
                written.completeExceptionally(new IllegalStateException("the WebSocket session is closing"));
            } else {
                complete(written, sent);
            }
        });
        return written;
    }

    private boolean refuseSend(CompletableFuture<Void> written) {
        if (closeSent || !channel.isActive()) {
            written.completeExceptionally(new IllegalStateException("the WebSocket session is closing"));
            return true;
        }
        return false;
    }

    /**
     * An application that sends without waiting for its stages to a client that does not read would
     * fill memory: past the bound the session fails with 1008, the code for a peer that broke the
     * endpoint's policy when no more specific one fits (RFC 6455, section 7.4.1; 1011 would blame the
     * server). The close frame cannot pass what waits, so the connection closes at once, which
     * releases the queued frames.
     */
    private boolean sendQueueFull(CompletableFuture<Void> written, int size) {
        ChannelOutboundBuffer queued = channel.unsafe().outboundBuffer();
        long waiting = queued == null ? 0 : queued.totalPendingWriteBytes();
        if (waiting == 0 || waiting + size <= options.maxSendQueue()) {
            return false;
        }
        log.debug("WebSocket session {}: {} bytes wait for a client that does not read; closing", setup.id(), waiting);
        endWith(WebSocketEnding.SEND_QUEUE_FULL);
        endInput(new IOException("WebSocket session failed: the client did not read what was sent to it"));
        if (!closeSent) {
            closeSent = true;
            result = new WebSocketClose(WebSocketClose.POLICY_VIOLATION, "client too slow", false);
            channel.write(new CloseWebSocketFrame(WebSocketClose.POLICY_VIOLATION, "client too slow"));
        }
        channel.close();
        written.completeExceptionally(new IllegalStateException("the WebSocket session's send queue is full"));
        return true;
    }

    private static void complete(CompletableFuture<Void> written, ChannelFuture future) {
        future.addListener(done -> {
            if (done.isSuccess()) {
                written.complete(null);
            } else {
                written.completeExceptionally(done.cause());
            }
        });
    }

    // ---- closing

    /**
     * Sends the server's close frame and waits up to the close timeout for the client's; returns the
     * write, or {@code null} when a close frame was already sent.
     */
    private ChannelFuture startClose(int code, String reason, WebSocketEnding why) {
        if (closeSent || !channel.isActive()) {
            return null;
        }
        closeSent = true;
        endWith(why);
        result = new WebSocketClose(code, reason, false);
        ChannelFuture sent = channel.writeAndFlush(new CloseWebSocketFrame(code, reason));
        long timeout = options.closeTimeout().toNanos();
        if (timeout == 0) {
            sent.addListener(ChannelFutureListener.CLOSE);
        } else {
            closeTimer = channel.eventLoop().schedule(this::closeTimedOut, timeout, TimeUnit.NANOSECONDS);
        }
        endInput(null);
        return sent;
    }

    private void closeTimedOut() {
        if (ending == WebSocketEnding.SERVER_CLOSED) {
            ending = WebSocketEnding.CLOSE_TIMEOUT;
        }
        channel.close();
    }

    /**
     * Fails the connection (RFC 6455, section 7.1.7): a close frame with the code if none was sent,
     * then the TCP close, without waiting for the client's answer.
     */
    private void fail(int code, String reason, WebSocketEnding why) {
        endWith(why);
        endInput(new IOException("WebSocket session failed: " + code + " " + reason));
        if (closeSent) {
            channel.close();
            return;
        }
        closeSent = true;
        result = new WebSocketClose(code, reason, false);
        closeAfter(channel.writeAndFlush(new CloseWebSocketFrame(code, reason)));
    }

    /**
     * Closes the connection once this close frame has left, its output first: closing a socket with
     * unread input makes the kernel send a reset, which can destroy the close frame before the client
     * reads it. The client's own close, or the close timeout, ends the rest.
     */
    private void closeAfter(ChannelFuture closeFrame) {
        closeFrame.addListener(written -> {
            long timeout = options.closeTimeout().toNanos();
            if (written.isSuccess() && timeout > 0 && channel instanceof DuplexChannel duplex && channel.isActive()) {
                duplex.shutdownOutput();
                channel.config().setAutoRead(true);
                closeTimer = channel.eventLoop().schedule(() -> channel.close(), timeout, TimeUnit.NANOSECONDS);
            } else {
                channel.close();
            }
        });
    }

    private void endWith(WebSocketEnding why) {
        if (ending == null) {
            ending = why;
        }
    }

    @Override
    public void exceptionCaught(ChannelHandlerContext ctx, Throwable cause) {
        if (cause instanceof CorruptedWebSocketFrameException corrupted) {
            int code = corrupted.closeStatus().code();
            fail(code, "", endingFor(code));
        } else if (cause instanceof DecoderException && isInflatedTooLarge(cause.getCause())) {
            fail(WebSocketClose.TOO_BIG, "message too big", WebSocketEnding.TOO_BIG);
        } else if (cause instanceof DecoderException) {
            log.debug("WebSocket session {}: undecodable frame", setup.id(), cause);
            fail(WebSocketClose.PROTOCOL_ERROR, "", WebSocketEnding.PROTOCOL_ERROR);
        } else if (cause instanceof IOException) {
            log.debug("WebSocket session {} failed: {}", setup.id(), cause.toString());
            channel.close();
        } else {
            log.warn("WebSocket session {} failed", setup.id(), cause);
            fail(WebSocketClose.INTERNAL_ERROR, "", WebSocketEnding.INTERNAL_ERROR);
        }
    }

    private static WebSocketEnding endingFor(int code) {
        return switch (code) {
            case WebSocketClose.TOO_BIG -> WebSocketEnding.TOO_BIG;
            case WebSocketClose.INVALID_PAYLOAD -> WebSocketEnding.INVALID_UTF8;
            default -> WebSocketEnding.PROTOCOL_ERROR;
        };
    }

    /** The inflater stopped at its bound (the message limit): a compression bomb, or just too big. */
    private static boolean isInflatedTooLarge(Throwable cause) {
        return cause instanceof DecompressionException
                && cause.getMessage() != null
                && cause.getMessage().startsWith("Decompression buffer has reached maximum size");
    }

    @Override
    public void channelInactive(ChannelHandlerContext ctx) {
        dropUnansweredPing();
        if (closeTimer != null) {
            closeTimer.cancel(false);
        }
        if (idleTimer != null) {
            idleTimer.cancel(false);
        }
        if (result == null) {
            result = new WebSocketClose(WebSocketClose.ABNORMAL, "", true);
        }
        endWith(WebSocketEnding.CONNECTION_LOST);
        counters.sessionEnded(ending);
        endInput(new IOException("WebSocket connection closed without a close frame"));
        closed.complete(result);
        ctx.fireChannelInactive();
    }

    // ---- idle and keep-alive

    private long tickNanos() {
        long idle = options.idleTimeout().toNanos();
        long ping = options.pingInterval().toNanos();
        long shortest = idle == 0 ? ping : ping == 0 ? idle : Math.min(idle, ping);
        return shortest == 0 ? 0 : Math.max(MIN_TICK_NANOS, shortest / 4);
    }

    private void checkIdle() {
        long now = System.nanoTime();
        if (!ready.isEmpty()) {
            lastReadNanos = now; // Paused by a slow reader, not idle.
            return;
        }
        long idle = options.idleTimeout().toNanos();
        if (idle > 0 && now - Math.max(lastReadNanos, lastDataNanos) >= idle) {
            startClose(WebSocketClose.GOING_AWAY, "idle timeout", WebSocketEnding.IDLE_TIMEOUT);
            return;
        }
        long ping = options.pingInterval().toNanos();
        if (ping > 0 && !closeSent && now - lastReadNanos >= ping && now - lastPingNanos >= ping) {
            lastPingNanos = now;
            channel.writeAndFlush(new PingWebSocketFrame());
        }
    }

    // ---- the session's facts

    @Override
    public CompletionStage<WebSocketClose> closed() {
        return closed.minimalCompletionStage();
    }

    @Override
    public boolean isOpen() {
        return !closeSent && channel.isActive();
    }

    @Override
    public String subprotocol() {
        return setup.subprotocol();
    }

    @Override
    public String id() {
        return setup.id();
    }

    @Override
    public InetSocketAddress remoteAddress() {
        return setup.remoteAddress();
    }

    private void onLoop(Runnable task) {
        if (channel.eventLoop().inEventLoop()) {
            task.run();
        } else {
            channel.eventLoop().execute(task);
        }
    }

    @Override
    public String toString() {
        return "WebSocketSession(" + setup.id() + ")";
    }
}
