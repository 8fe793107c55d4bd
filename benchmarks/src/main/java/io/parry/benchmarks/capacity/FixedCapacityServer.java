package io.parry.benchmarks.capacity;

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
 * An upstream of fixed capacity for the goodput benchmark: {@code PERMITS} requests are served at once, each holding
 * its permit for {@code SERVICE_MS} milliseconds, so it serves at most {@code PERMITS * 1000 / SERVICE_MS} requests
 * a second; requests past the permits wait in line (first come, first served, without bound), as they do in front
 * of a busy thread pool, so its latency rises with the load it is offered.
 *
 * <p>Every request answers {@code 200 ok} once served, whatever its path. One event-loop thread owns the permits and
 * the line, so they need no locks. It listens on 127.0.0.1 only; settings come from the environment: {@code PORT}
 * (default 8140), {@code PERMITS} (default 50) and {@code SERVICE_MS} (default 100).
 *
 * <pre>{@code
 * PORT=8140 PERMITS=50 java -cp benchmarks/target/parry-benchmarks.jar io.parry.benchmarks.capacity.FixedCapacityServer
 * }</pre>
 */
public final class FixedCapacityServer {
    private FixedCapacityServer() {}

    /** Starts the server and blocks until the JVM is stopped. */
    public static void main(String[] args) throws InterruptedException {
        int port = Env.intValue("PORT", 8140);
        int permits = Env.intValue("PERMITS", 50);
        int serviceMillis = Env.intValue("SERVICE_MS", 100);
        boolean epoll = Epoll.isAvailable();
        IoHandlerFactory ioHandler = epoll ? EpollIoHandler.newFactory() : NioIoHandler.newFactory();
        Class<? extends ServerChannel> channelType =
                epoll ? EpollServerSocketChannel.class : NioServerSocketChannel.class;
        EventLoopGroup group = new MultiThreadIoEventLoopGroup(1, ioHandler);
        try {
            ServiceLine line = new ServiceLine(permits, serviceMillis);
            Channel server = new ServerBootstrap()
                    .group(group)
                    .channel(channelType)
                    .childHandler(new FixedCapacityInitializer(line))
                    .bind(InetAddress.getLoopbackAddress(), port)
                    .sync()
                    .channel();
            System.out.printf(
                    "fixed-capacity upstream on 127.0.0.1:%d: %d permits of %d ms, at most %d requests/s%n",
                    port, permits, serviceMillis, permits * 1000L / serviceMillis);
            server.closeFuture().sync();
        } finally {
            group.shutdownGracefully();
        }
    }
}
