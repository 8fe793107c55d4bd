package io.parry.testing;

import io.netty.bootstrap.ServerBootstrap;
import io.netty.buffer.Unpooled;
import io.netty.channel.Channel;
import io.netty.channel.ChannelFutureListener;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelInboundHandlerAdapter;
import io.netty.channel.ChannelInitializer;
import io.netty.channel.ChannelOption;
import io.netty.channel.MultiThreadIoEventLoopGroup;
import io.netty.channel.group.ChannelGroup;
import io.netty.channel.group.DefaultChannelGroup;
import io.netty.channel.nio.NioIoHandler;
import io.netty.channel.socket.SocketChannel;
import io.netty.channel.socket.nio.NioServerSocketChannel;
import io.netty.handler.codec.http.FullHttpRequest;
import io.netty.handler.codec.http.HttpObjectAggregator;
import io.netty.handler.codec.http.HttpServerCodec;
import io.netty.handler.codec.http.websocketx.BinaryWebSocketFrame;
import io.netty.handler.codec.http.websocketx.CloseWebSocketFrame;
import io.netty.handler.codec.http.websocketx.ContinuationWebSocketFrame;
import io.netty.handler.codec.http.websocketx.TextWebSocketFrame;
import io.netty.handler.codec.http.websocketx.WebSocketFrame;
import io.netty.handler.codec.http.websocketx.WebSocketServerProtocolConfig;
import io.netty.handler.codec.http.websocketx.WebSocketServerProtocolHandler;
import io.netty.util.ReferenceCountUtil;
import io.netty.util.concurrent.GlobalEventExecutor;
import io.parry.http.HttpHeaders;
import java.net.InetSocketAddress;
import java.util.Map;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;

/**
 * A WebSocket upstream on 127.0.0.1 for proxy and client tests, on plain Netty: every path accepts the
 * handshake (RFC 6455, no extensions, messages up to 16 MiB) and echoes each data frame. It records
 * the handshake requests and the close codes it receives, and can close, break or flood its sessions.
 */
public final class WebSocketUpstream implements AutoCloseable {
    private final MultiThreadIoEventLoopGroup group = new MultiThreadIoEventLoopGroup(1, NioIoHandler.newFactory());
    private final ChannelGroup sessions = new DefaultChannelGroup(GlobalEventExecutor.INSTANCE);
    private final BlockingQueue<HttpHeaders> handshakes = new LinkedBlockingQueue<>();
    private final BlockingQueue<Integer> closes = new LinkedBlockingQueue<>();
    private final BlockingQueue<String> disconnects = new LinkedBlockingQueue<>();
    private final AtomicLong streamed = new AtomicLong();
    private final Channel listener;

    private WebSocketUpstream() {
        listener = new ServerBootstrap()
                .group(group)
                .channel(NioServerSocketChannel.class)
                .childOption(ChannelOption.TCP_NODELAY, true)
                .childHandler(new ChannelInitializer<SocketChannel>() {
                    @Override
                    protected void initChannel(SocketChannel channel) {
                        channel.pipeline()
                                .addLast(new HttpServerCodec())
                                .addLast(new HttpObjectAggregator(64 * 1024))
                                .addLast(new HandshakeRecorder())
                                .addLast(new WebSocketServerProtocolHandler(WebSocketServerProtocolConfig.newBuilder()
                                        .websocketPath("/")
                                        .checkStartsWith(true)
                                        .handleCloseFrames(false)
                                        .maxFramePayloadLength(16 << 20)
                                        .sendCloseFrame(null)
                                        .build()))
                                .addLast(new Echo());
                    }
                })
                .bind(new InetSocketAddress("127.0.0.1", 0))
                .syncUninterruptibly()
                .channel();
    }

    /** Starts an upstream on an ephemeral port. */
    public static WebSocketUpstream start() {
        return new WebSocketUpstream();
    }

    /** The port it listens on. */
    public int port() {
        return ((InetSocketAddress) listener.localAddress()).getPort();
    }

    /** The header fields of the next handshake request received, waiting up to 5 seconds. */
    public HttpHeaders awaitHandshake() {
        return poll(handshakes, "a handshake");
    }

    /** The code of the next close frame received from a client, waiting up to 5 seconds; -1 for none. */
    public int awaitCloseCode() {
        return poll(closes, "a close frame");
    }

    /** Waits up to 5 seconds for the next session's connection to end. */
    public void awaitDisconnect() {
        poll(disconnects, "a disconnect");
    }

    /** How many sessions are open. */
    public int openSessions() {
        return sessions.size();
    }

    /** Sends a close frame with this code to every session. */
    public void closeAll(int code, String reason) {
        sessions.writeAndFlush(new CloseWebSocketFrame(code, reason)).syncUninterruptibly();
    }

    /** Breaks every session's connection, without a close frame. */
    public void abortAll() {
        sessions.close().syncUninterruptibly();
    }

    /**
     * Sends {@code count} binary messages of {@code size} bytes to every session, writing only while the
     * socket takes them; the stage completes when the last is written.
     */
    public CompletableFuture<Void> stream(int count, int size) {
        CompletableFuture<Void> done = new CompletableFuture<>();
        Channel session = sessions.iterator().next();
        session.eventLoop().execute(() -> new Stream(session, count, size, streamed, done).run());
        return done;
    }

    /** How many payload bytes {@link #stream} has written so far. */
    public long streamedBytes() {
        return streamed.get();
    }

    @Override
    public void close() {
        listener.close().syncUninterruptibly();
        sessions.close().syncUninterruptibly();
        group.shutdownGracefully(0, 1, TimeUnit.SECONDS).syncUninterruptibly();
    }

    private static <T> T poll(BlockingQueue<T> queue, String what) {
        try {
            T next = queue.poll(5, TimeUnit.SECONDS);
            if (next == null) {
                throw new AssertionError("no " + what + " within 5 s");
            }
            return next;
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new AssertionError(e);
        }
    }

    private final class HandshakeRecorder extends ChannelInboundHandlerAdapter {
        @Override
        public void channelRead(ChannelHandlerContext ctx, Object msg) {
            if (msg instanceof FullHttpRequest) {
                HttpHeaders.Builder headers = HttpHeaders.builder();
                for (Map.Entry<String, String> field : ((FullHttpRequest) msg).headers()) {
                    headers.add(field.getKey(), field.getValue());
                }
                handshakes.add(headers.build());
                // Before the 101 leaves, so a test that saw it open finds the session.
                sessions.add(ctx.channel());
            }
            ctx.fireChannelRead(msg);
        }

        @Override
        public void channelInactive(ChannelHandlerContext ctx) {
            disconnects.add(ctx.channel().toString());
            ctx.fireChannelInactive();
        }
    }

    private final class Echo extends ChannelInboundHandlerAdapter {
        @Override
        public void channelRead(ChannelHandlerContext ctx, Object msg) {
            if (msg instanceof CloseWebSocketFrame) {
                CloseWebSocketFrame close = (CloseWebSocketFrame) msg;
                closes.add(close.statusCode());
                ctx.writeAndFlush(close).addListener(ChannelFutureListener.CLOSE);
            } else if (msg instanceof TextWebSocketFrame
                    || msg instanceof BinaryWebSocketFrame
                    || msg instanceof ContinuationWebSocketFrame) {
                ctx.writeAndFlush(msg);
            } else {
                ReferenceCountUtil.release(msg);
            }
        }
    }

    /** Writes messages while the channel is writable, and goes on when it is again. */
    private static final class Stream extends ChannelInboundHandlerAdapter implements Runnable {
        private final Channel channel;
        private final byte[] payload;
        private final AtomicLong streamed;
        private final CompletableFuture<Void> done;
        private int left;

        Stream(Channel channel, int count, int size, AtomicLong streamed, CompletableFuture<Void> done) {
            this.streamed = streamed;
            this.channel = channel;
            this.left = count;
            this.payload = new byte[size];
            this.done = done;
            channel.pipeline().addFirst(this);
        }

        @Override
        public void run() {
            while (left > 0 && channel.isWritable()) {
                left--;
                WebSocketFrame frame = new BinaryWebSocketFrame(Unpooled.wrappedBuffer(payload));
                channel.write(frame);
                streamed.addAndGet(payload.length);
            }
            channel.flush();
            if (left == 0) {
                channel.pipeline().remove(this);
                done.complete(null);
            } else if (!channel.isActive()) {
                done.completeExceptionally(new IllegalStateException("the session closed with " + left + " left"));
            }
        }

        @Override
        public void channelWritabilityChanged(ChannelHandlerContext ctx) {
            if (channel.isWritable()) {
                run();
            }
            ctx.fireChannelWritabilityChanged();
        }
    }
}
