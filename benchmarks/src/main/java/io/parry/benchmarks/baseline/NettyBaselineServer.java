package io.parry.benchmarks.baseline;

import io.netty.bootstrap.ServerBootstrap;
import io.netty.channel.Channel;
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
 * A raw Netty HTTP/1.1 server, written the way a careful Netty application is, that Parry is measured against.
 *
 * <p>It serves the same routes as Parry's hello example: {@code GET /plaintext}, {@code GET /json},
 * {@code POST /echo} (streamed, with backpressure), {@code GET /delay?ms=N} (timer on the event loop), and 404 for
 * anything else. It listens on 127.0.0.1 only, since the harness runs client and server on one machine. Settings
 * come from the environment: {@code PORT} (default 8081) and {@code THREADS}, the number of event-loop threads
 * (default: available processors). The native epoll transport is used when available, NIO otherwise; the choice is
 * printed at start-up because it changes the figures.
 *
 * <pre>{@code
 * PORT=8081 java -cp benchmarks/target/parry-benchmarks.jar io.parry.benchmarks.baseline.NettyBaselineServer
 * }</pre>
 */
public final class NettyBaselineServer {
    private NettyBaselineServer() {}

    /** Starts the server and blocks until the JVM is stopped. */
    public static void main(String[] args) throws InterruptedException {
        int port = Env.intValue("PORT", 8081);
        int threads = Env.intValue("THREADS", Runtime.getRuntime().availableProcessors());
        boolean epoll = Epoll.isAvailable();
        IoHandlerFactory ioHandler = epoll ? EpollIoHandler.newFactory() : NioIoHandler.newFactory();
        Class<? extends ServerChannel> channelType =
                epoll ? EpollServerSocketChannel.class : NioServerSocketChannel.class;
        // One group accepts and serves: the acceptor costs one channel on one loop, not a thread.
        EventLoopGroup group = new MultiThreadIoEventLoopGroup(threads, ioHandler);
        try {
            Channel server = new ServerBootstrap()
                    .group(group)
                    .channel(channelType)
                    .childHandler(new BaselineInitializer())
                    .bind(InetAddress.getLoopbackAddress(), port)
                    .sync()
                    .channel();
            System.out.printf(
                    "netty-baseline listening on 127.0.0.1:%d (transport %s, %d event-loop threads)%n",
                    port, epoll ? "epoll" : "nio", threads);
            server.closeFuture().sync();
        } finally {
            group.shutdownGracefully();
        }
    }
}
