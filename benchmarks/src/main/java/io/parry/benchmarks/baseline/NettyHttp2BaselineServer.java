package io.parry.benchmarks.baseline;

import io.netty.bootstrap.ServerBootstrap;
import io.netty.channel.Channel;
import io.netty.channel.ChannelInitializer;
import io.netty.channel.ChannelOption;
import io.netty.channel.EventLoopGroup;
import io.netty.channel.IoHandlerFactory;
import io.netty.channel.MultiThreadIoEventLoopGroup;
import io.netty.channel.ServerChannel;
import io.netty.channel.epoll.Epoll;
import io.netty.channel.epoll.EpollIoHandler;
import io.netty.channel.epoll.EpollServerSocketChannel;
import io.netty.channel.nio.NioIoHandler;
import io.netty.channel.socket.nio.NioServerSocketChannel;
import io.parry.benchmarks.Env;
import java.net.InetAddress;

/**
 * A raw Netty HTTP/2 server (h2c with prior knowledge), written the way a careful Netty application
 * is, that Parry's HTTP/2 framing is measured against: an {@code Http2ConnectionHandler} with its own
 * frame listener ({@link Http2BaselineHandler}), no per-stream channels, no HTTP/1 object conversion.
 *
 * <p>It serves {@code GET /plaintext} as the hello example does, and 404 for anything else, on
 * 127.0.0.1. {@code PORT} (default 8082) and {@code THREADS} (default: available processors) come
 * from the environment; epoll is used when available.
 *
 * <pre>{@code
 * PORT=8082 java -cp benchmarks/target/parry-benchmarks.jar io.parry.benchmarks.baseline.NettyHttp2BaselineServer
 * }</pre>
 */
public final class NettyHttp2BaselineServer {
    private NettyHttp2BaselineServer() {}

    /** Starts the server and blocks until the JVM is stopped. */
    public static void main(String[] args) throws InterruptedException {
        int port = Env.intValue("PORT", 8082);
        int threads = Env.intValue("THREADS", Runtime.getRuntime().availableProcessors());
        boolean epoll = Epoll.isAvailable();
        IoHandlerFactory ioHandler = epoll ? EpollIoHandler.newFactory() : NioIoHandler.newFactory();
        Class<? extends ServerChannel> channelType =
                epoll ? EpollServerSocketChannel.class : NioServerSocketChannel.class;
        EventLoopGroup group = new MultiThreadIoEventLoopGroup(threads, ioHandler);
        try {
            Channel server = new ServerBootstrap()
                    .group(group)
                    .channel(channelType)
                    .childOption(ChannelOption.TCP_NODELAY, true)
                    .childHandler(new ChannelInitializer<>() {
                        @Override
                        protected void initChannel(Channel channel) {
                            channel.pipeline().addLast(Http2BaselineHandler.create());
                        }
                    })
                    .bind(InetAddress.getLoopbackAddress(), port)
                    .sync()
                    .channel();
            System.out.printf(
                    "netty-h2-baseline listening on 127.0.0.1:%d (transport %s, %d event-loop threads)%n",
                    port, epoll ? "epoll" : "nio", threads);
            server.closeFuture().sync();
        } finally {
            group.shutdownGracefully();
        }
    }
}
