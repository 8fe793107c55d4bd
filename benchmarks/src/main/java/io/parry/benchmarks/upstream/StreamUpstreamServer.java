package io.parry.benchmarks.upstream;

import io.netty.bootstrap.ServerBootstrap;
import io.netty.channel.Channel;
import io.netty.channel.ChannelOption;
import io.netty.channel.EventLoopGroup;
import io.netty.channel.IoHandlerFactory;
import io.netty.channel.MultiThreadIoEventLoopGroup;
import io.netty.channel.ServerChannel;
import io.netty.channel.WriteBufferWaterMark;
import io.netty.channel.epoll.Epoll;
import io.netty.channel.epoll.EpollIoHandler;
import io.netty.channel.epoll.EpollServerSocketChannel;
import io.netty.channel.nio.NioIoHandler;
import io.netty.channel.socket.nio.NioServerSocketChannel;
import io.parry.benchmarks.Env;
import java.net.InetAddress;

/**
 * A raw Netty HTTP/1.1 upstream for streaming large bodies through a proxy: it sinks uploads and sources downloads.
 *
 * <p>Routes: {@code POST /upload} reads the request body, discards it as it arrives and answers {@code 200} with the
 * number of body bytes received as a decimal line; {@code GET /download?bytes=N} answers {@code 200} with a
 * {@code Content-Length} of N zero bytes, written only while the connection is writable, so a slow reader holds the
 * server to a bounded buffer; {@code GET /plaintext} answers {@code ok}, for readiness checks; anything else is 404.
 * It listens on 127.0.0.1 only. Settings come from the environment: {@code PORT} (default 8083) and
 * {@code THREADS}, the number of event-loop threads (default: available processors).
 *
 * <pre>{@code
 * PORT=8083 java -cp benchmarks/target/parry-benchmarks.jar io.parry.benchmarks.upstream.StreamUpstreamServer
 * }</pre>
 */
public final class StreamUpstreamServer {
    /** Several 64 KiB chunks in flight per connection, so each writability cycle sends more than one chunk. */
    private static final WriteBufferWaterMark WATER_MARK = new WriteBufferWaterMark(256 * 1024, 512 * 1024);

    private StreamUpstreamServer() {}

    /** Starts the server and blocks until the JVM is stopped. */
    public static void main(String[] args) throws InterruptedException {
        int port = Env.intValue("PORT", 8083);
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
                    .childOption(ChannelOption.WRITE_BUFFER_WATER_MARK, WATER_MARK)
                    .childHandler(new StreamUpstreamInitializer())
                    .bind(InetAddress.getLoopbackAddress(), port)
                    .sync()
                    .channel();
            System.out.printf(
                    "stream-upstream listening on 127.0.0.1:%d (transport %s, %d event-loop threads)%n",
                    port, epoll ? "epoll" : "nio", threads);
            server.closeFuture().sync();
        } finally {
            group.shutdownGracefully();
        }
    }
}
