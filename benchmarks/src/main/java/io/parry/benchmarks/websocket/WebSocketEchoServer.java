package io.parry.benchmarks.websocket;

import io.netty.bootstrap.ServerBootstrap;
import io.netty.channel.Channel;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelInboundHandlerAdapter;
import io.netty.channel.ChannelInitializer;
import io.netty.channel.ChannelOption;
import io.netty.channel.EventLoopGroup;
import io.netty.channel.MultiThreadIoEventLoopGroup;
import io.netty.channel.epoll.Epoll;
import io.netty.channel.epoll.EpollIoHandler;
import io.netty.channel.epoll.EpollServerSocketChannel;
import io.netty.channel.nio.NioIoHandler;
import io.netty.channel.socket.SocketChannel;
import io.netty.channel.socket.nio.NioServerSocketChannel;
import io.netty.handler.codec.http.HttpObjectAggregator;
import io.netty.handler.codec.http.HttpServerCodec;
import io.netty.handler.codec.http.websocketx.BinaryWebSocketFrame;
import io.netty.handler.codec.http.websocketx.ContinuationWebSocketFrame;
import io.netty.handler.codec.http.websocketx.TextWebSocketFrame;
import io.netty.handler.codec.http.websocketx.WebSocketServerProtocolConfig;
import io.netty.handler.codec.http.websocketx.WebSocketServerProtocolHandler;
import io.netty.util.ReferenceCountUtil;
import io.parry.benchmarks.Env;
import java.net.InetSocketAddress;

/**
 * The WebSocket upstream of {@code benchmarks/ws-proxy.sh} and {@code ws-idle.sh}: plain Netty, one event
 * loop per core, every path accepts the handshake and echoes each text and binary frame, flushed once per
 * read. {@code PORT} (default 8100).
 */
public final class WebSocketEchoServer {
    private WebSocketEchoServer() {}

    public static void main(String[] args) throws InterruptedException {
        int port = Env.intValue("PORT", 8100);
        boolean epoll = Epoll.isAvailable();
        EventLoopGroup group =
                new MultiThreadIoEventLoopGroup(0, epoll ? EpollIoHandler.newFactory() : NioIoHandler.newFactory());
        Channel listener = new ServerBootstrap()
                .group(group)
                .channel(epoll ? EpollServerSocketChannel.class : NioServerSocketChannel.class)
                .option(ChannelOption.SO_BACKLOG, 4096)
                .childOption(ChannelOption.TCP_NODELAY, true)
                .childHandler(new ChannelInitializer<SocketChannel>() {
                    @Override
                    protected void initChannel(SocketChannel channel) {
                        channel.pipeline()
                                .addLast(new HttpServerCodec())
                                .addLast(new HttpObjectAggregator(64 * 1024))
                                .addLast(new WebSocketServerProtocolHandler(WebSocketServerProtocolConfig.newBuilder()
                                        .websocketPath("/")
                                        .checkStartsWith(true)
                                        .maxFramePayloadLength(16 << 20)
                                        .build()))
                                .addLast(new Echo());
                    }
                })
                .bind(new InetSocketAddress("127.0.0.1", port))
                .sync()
                .channel();
        System.out.println("WebSocket echo on 127.0.0.1:" + port);
        listener.closeFuture().sync();
    }

    private static final class Echo extends ChannelInboundHandlerAdapter {
        @Override
        public void channelRead(ChannelHandlerContext ctx, Object msg) {
            if (msg instanceof TextWebSocketFrame
                    || msg instanceof BinaryWebSocketFrame
                    || msg instanceof ContinuationWebSocketFrame) {
                ctx.write(msg, ctx.voidPromise());
            } else {
                ReferenceCountUtil.release(msg);
            }
        }

        @Override
        public void channelReadComplete(ChannelHandlerContext ctx) {
            ctx.flush();
        }
    }
}
