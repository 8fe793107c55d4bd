package io.parry.proxy.internal;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.Unpooled;
import io.netty.channel.Channel;
import io.netty.channel.ChannelDuplexHandler;
import io.netty.channel.ChannelFutureListener;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelPipeline;
import io.netty.handler.codec.http.websocketx.CloseWebSocketFrame;
import io.netty.handler.codec.http.websocketx.ContinuationWebSocketFrame;
import io.netty.handler.codec.http.websocketx.PingWebSocketFrame;
import io.netty.handler.codec.http.websocketx.PongWebSocketFrame;
import io.netty.handler.codec.http.websocketx.WebSocket13FrameEncoder;
import io.netty.handler.codec.http.websocketx.WebSocketFrame;
import io.netty.util.ReferenceCountUtil;
import io.netty.util.concurrent.ScheduledFuture;
import io.parry.proxy.WebSocketProxyOptions;
import java.util.concurrent.TimeUnit;

/**
 * Relays WebSocket frames between a client's connection and an upstream's once the upstream answered
 * {@code 101}. Frames pass as the bytes that came, header and all ({@link RelayFrameDecoder}): no copy,
 * no re-encoding, their opcode, FIN and RSV bits unchanged (extensions negotiated end to end, such as
 * permessage-deflate, pass through without inflating); the client's frames get a mask key of the
 * gateway's in place (RFC 6455, section 5.3). Writes made while reading are flushed once per read
 * batch.
 *
 * <p>Backpressure: a side stops reading while the other side's channel is not writable, and reads again
 * when it is. Closes: a close frame is forwarded, and once each side has sent one and received one both
 * connections close; a side whose connection ends or breaks, an idle timeout or {@link #goAway} closes
 * the other side with {@code 1001}. A frame or message over the limits closes its sender with {@code
 * 1009}, a malformed frame with {@code 1002} (the decoder sends that close), and the other side
 * with {@code 1001}. Both channels must be on one event loop; every method runs there.
 */
public final class WebSocketRelay {
    static final int GOING_AWAY = 1001;
    static final int MESSAGE_TOO_BIG = 1009;

    private final WebSocketProxyOptions options;
    private final Runnable onEnd;
    final Side downstream = new Side(true);
    final Side upstream = new Side(false);
    private ScheduledFuture<?> closeTimer;
    private ScheduledFuture<?> idleTimer;
    /** When either side last read a batch of frames, on the event loop's ticker. */
    private long lastReadNanos;

    private boolean ended;

    /** A relay with these limits; {@code onEnd} runs once, when the first of its connections ends. */
    public WebSocketRelay(WebSocketProxyOptions options, Runnable onEnd) {
        this.options = options;
        this.onEnd = onEnd;
        downstream.peer = upstream;
        upstream.peer = downstream;
    }

    /**
     * Adds the client side's codec (masked frames in, unmasked out) and relay handler to the pipeline's
     * end. The encoder comes after the relay handler: relayed frames, already bytes, go from the relay
     * straight to the socket, and only close frames, written from the pipeline's tail, are encoded.
     */
    public void installDownstream(ChannelPipeline pipeline) {
        pipeline.addLast("ws-decoder", new RelayFrameDecoder(true, options.maxFrameSize()));
        pipeline.addLast("ws-relay", downstream);
        pipeline.addLast("ws-encoder", new WebSocket13FrameEncoder(false));
    }

    /** Adds the upstream side's codec (unmasked frames in, masked out) and relay handler to the pipeline's end, as above. */
    public void installUpstream(ChannelPipeline pipeline) {
        pipeline.addLast("ws-decoder", new RelayFrameDecoder(false, options.maxFrameSize()));
        pipeline.addLast("ws-relay", upstream);
        pipeline.addLast("ws-encoder", new WebSocket13FrameEncoder(true));
    }

    /** Starts reading both sides, once both are installed, and the idle timeout if there is one. */
    public void start() {
        downstream.resumeReading();
        upstream.resumeReading();
        long idle = options.idleTimeout().toNanos();
        if (idle > 0) {
            lastReadNanos = now();
            idleTimer = downstream.ctx.executor().schedule(this::checkIdle, idle, TimeUnit.NANOSECONDS);
        }
    }

    /** Closes both sides with {@code 1001} and this reason, as a server going down does. */
    public void goAway(String reason) {
        downstream.sendClose(GOING_AWAY, reason);
        upstream.sendClose(GOING_AWAY, reason);
    }

    /** Whether either connection has ended. */
    public boolean isEnded() {
        return ended;
    }

    private void startCloseTimer(Channel channel) {
        if (closeTimer == null) {
            closeTimer = channel.eventLoop()
                    .schedule(this::closeBoth, options.closeTimeout().toNanos(), TimeUnit.NANOSECONDS);
        }
    }

    private void closeBoth() {
        downstream.closeAfterWrites();
        upstream.closeAfterWrites();
    }

    /**
     * Every frame read on either side is written to the other, so the last read tells when the session
     * last moved. Netty's {@code IdleStateHandler} would do the same at the cost of a promise and a
     * listener for each frame written; here it costs one clock read per read batch.
     */
    private void checkIdle() {
        if (ended) {
            return;
        }
        long idle = options.idleTimeout().toNanos();
        long quiet = now() - lastReadNanos;
        if (quiet >= idle) {
            goAway("idle timeout");
        } else {
            idleTimer = downstream.ctx.executor().schedule(this::checkIdle, idle - quiet, TimeUnit.NANOSECONDS);
        }
    }

    /** The loop's clock (both sides share the loop), which tests can stop. */
    private long now() {
        return downstream.ctx.executor().ticker().nanoTime();
    }

    private void sideEnded() {
        if (!ended) {
            ended = true;
            onEnd.run();
            if (idleTimer != null) {
                idleTimer.cancel(false);
            }
        }
        if (!downstream.isOpen() && !upstream.isOpen() && closeTimer != null) {
            closeTimer.cancel(false);
        }
    }

    /** One side's relay handler: reads its frames and writes them to the other side. */
    final class Side extends ChannelDuplexHandler {
        private final boolean isDownstream;
        Side peer;
        private ChannelHandlerContext ctx;
        private boolean closeReceived;
        private boolean closeSent;
        private long messageBytes;

        Side(boolean isDownstream) {
            this.isDownstream = isDownstream;
        }

        @Override
        public void handlerAdded(ChannelHandlerContext ctx) {
            this.ctx = ctx;
            ctx.channel().config().setAutoRead(false);
        }

        /**
         * Takes frames as {@link RelayFrameDecoder} cuts them (the bytes of a data or control frame,
         * a close frame decoded), or as decoded frames.
         */
        @Override
        public void channelRead(ChannelHandlerContext ctx, Object msg) {
            if (!(msg instanceof WebSocketFrame || msg instanceof ByteBuf) || closeReceived) {
                ReferenceCountUtil.release(msg); // RFC 6455, section 5.5.1: nothing follows a close frame.
                return;
            }
            if (msg instanceof CloseWebSocketFrame close) {
                closeReceived(close);
            } else if (tooLarge(msg)) {
                ReferenceCountUtil.release(msg);
                sendClose(MESSAGE_TOO_BIG, "message too big");
                peer.sendClose(GOING_AWAY, "the peer sent too large a message");
            } else {
                peer.forward(msg);
                if (!peer.isWritable()) {
                    ctx.channel().config().setAutoRead(false);
                }
            }
        }

        @Override
        public void channelReadComplete(ChannelHandlerContext ctx) {
            lastReadNanos = now();
            peer.ctx.flush();
            ctx.fireChannelReadComplete();
        }

        @Override
        public void channelWritabilityChanged(ChannelHandlerContext ctx) {
            if (ctx.channel().isWritable()) {
                peer.resumeReading();
            }
            ctx.fireChannelWritabilityChanged();
        }

        @Override
        public void channelInactive(ChannelHandlerContext ctx) {
            if (!closeReceived || !closeSent) {
                peer.sendClose(GOING_AWAY, isDownstream ? "the client went away" : "the upstream went away");
            }
            peer.closeAfterWrites();
            sideEnded();
            ctx.fireChannelInactive();
        }

        /** A malformed or too large frame: the decoder sent its own close (1002, 1009) and closes. */
        @Override
        public void exceptionCaught(ChannelHandlerContext ctx, Throwable cause) {
            closeSent = true;
            ctx.close();
        }

        boolean isOpen() {
            return ctx != null && ctx.channel().isActive();
        }

        boolean isWritable() {
            return ctx.channel().isWritable();
        }

        void resumeReading() {
            if (!closeReceived && ctx.channel().isActive()) {
                ctx.channel().config().setAutoRead(true);
            }
        }

        /** Writes a frame's bytes past the encoder, a decoded frame through it. */
        void forward(Object frame) {
            if (closeSent) {
                ReferenceCountUtil.release(frame); // This side said goodbye already; nothing may follow its close.
            } else if (frame instanceof ByteBuf) {
                ctx.write(frame, ctx.voidPromise());
            } else {
                ctx.channel().write(frame, ctx.voidPromise());
            }
        }

        /** Sends a close frame unless one was sent, then waits for the answer up to the close timeout. */
        void sendClose(int code, String reason) {
            if (closeSent || !isOpen()) {
                return;
            }
            closeSent = true;
            ctx.channel().writeAndFlush(new CloseWebSocketFrame(code, reason), ctx.voidPromise());
            finishOrWait();
        }

        void closeAfterWrites() {
            if (isOpen()) {
                ctx.writeAndFlush(Unpooled.EMPTY_BUFFER).addListener(ChannelFutureListener.CLOSE);
            }
        }

        /** Forwarded to the other side, whose answer comes back the same way (RFC 6455, section 5.5.1). */
        private void closeReceived(CloseWebSocketFrame frame) {
            closeReceived = true;
            ctx.channel().config().setAutoRead(true); // Only the end of the connection follows.
            if (peer.closeSent) {
                frame.release();
            } else {
                peer.closeSent = true;
                peer.ctx.channel().writeAndFlush(frame, peer.ctx.voidPromise());
            }
            finishOrWait();
        }

        private void finishOrWait() {
            if (closeSent && closeReceived && peer.closeSent && peer.closeReceived) {
                closeBoth();
            } else {
                startCloseTimer(ctx.channel());
            }
        }

        /** Counts the frame into its message: a text or binary frame starts one, a continuation adds to it. */
        private boolean tooLarge(Object msg) {
            int opcode;
            long size;
            if (msg instanceof ByteBuf bytes) {
                opcode = RelayFrames.opcode(bytes);
                size = RelayFrames.payloadLength(bytes, bytes.readerIndex());
            } else {
                WebSocketFrame frame = (WebSocketFrame) msg;
                opcode = frame instanceof ContinuationWebSocketFrame
                        ? 0
                        : frame instanceof PingWebSocketFrame || frame instanceof PongWebSocketFrame ? 9 : 2;
                size = frame.content().readableBytes();
            }
            if (opcode >= 8) {
                return false;
            }
            messageBytes = opcode == 0 ? messageBytes + size : size;
            return messageBytes > options.maxMessageSize();
        }
    }
}
