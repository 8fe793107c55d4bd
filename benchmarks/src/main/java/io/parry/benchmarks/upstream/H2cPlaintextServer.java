package io.parry.benchmarks.upstream;

import io.netty.bootstrap.ServerBootstrap;
import io.netty.buffer.ByteBuf;
import io.netty.buffer.Unpooled;
import io.netty.channel.Channel;
import io.netty.channel.ChannelHandler;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelInboundHandlerAdapter;
import io.netty.channel.ChannelInitializer;
import io.netty.channel.EventLoopGroup;
import io.netty.channel.IoHandlerFactory;
import io.netty.channel.MultiThreadIoEventLoopGroup;
import io.netty.channel.ServerChannel;
import io.netty.channel.epoll.Epoll;
import io.netty.channel.epoll.EpollIoHandler;
import io.netty.channel.epoll.EpollServerSocketChannel;
import io.netty.channel.nio.NioIoHandler;
import io.netty.channel.socket.nio.NioServerSocketChannel;
import io.netty.handler.codec.http2.DefaultHttp2DataFrame;
import io.netty.handler.codec.http2.DefaultHttp2Headers;
import io.netty.handler.codec.http2.DefaultHttp2HeadersFrame;
import io.netty.handler.codec.http2.Http2DataFrame;
import io.netty.handler.codec.http2.Http2FrameCodecBuilder;
import io.netty.handler.codec.http2.Http2Headers;
import io.netty.handler.codec.http2.Http2HeadersFrame;
import io.netty.handler.codec.http2.Http2MultiplexHandler;
import io.netty.handler.codec.http2.Http2StreamChannel;
import io.netty.util.ReferenceCountUtil;
import io.parry.benchmarks.Env;
import java.net.InetAddress;
import java.nio.charset.StandardCharsets;

/**
 * A raw Netty HTTP/2 upstream in cleartext with prior knowledge (h2c), written the way a Netty
 * application serves HTTP/2 ({@code Http2FrameCodec} and a handler per stream): every request, once
 * its stream ended, is answered {@code 200} with {@code Hello, World!}. The upstream of {@code
 * proxy-h2.sh}, to compare a proxy's HTTP/1.1 to HTTP/2 path with its HTTP/1.1 to HTTP/1.1 one. It
 * listens on 127.0.0.1 only; {@code PORT} (default 8103), {@code THREADS} (default: processors).
 *
 * <pre>{@code
 * PORT=8103 java -cp benchmarks/target/parry-benchmarks.jar io.parry.benchmarks.upstream.H2cPlaintextServer
 * }</pre>
 */
public final class H2cPlaintextServer {
    private static final ByteBuf HELLO = Unpooled.unreleasableBuffer(
            Unpooled.directBuffer().writeBytes("Hello, World!".getBytes(StandardCharsets.US_ASCII)));

    private H2cPlaintextServer() {}

    /** Starts the server and blocks until the JVM is stopped. */
    public static void main(String[] args) throws InterruptedException {
        int port = Env.intValue("PORT", 8103);
        int threads = Env.intValue("THREADS", Runtime.getRuntime().availableProcessors());
        boolean epoll = Epoll.isAvailable();
        IoHandlerFactory ioHandler = epoll ? EpollIoHandler.newFactory() : NioIoHandler.newFactory();
        Class<? extends ServerChannel> channelType =
                epoll ? EpollServerSocketChannel.class : NioServerSocketChannel.class;
        EventLoopGroup group = new MultiThreadIoEventLoopGroup(threads, ioHandler);
        ChannelHandler stream = new StreamHandler();
        try {
            Channel server = new ServerBootstrap()
                    .group(group)
                    .channel(channelType)
                    .childHandler(new ChannelInitializer<Channel>() {
                        @Override
                        protected void initChannel(Channel ch) {
                            ch.pipeline()
                                    .addLast(
                                            Http2FrameCodecBuilder.forServer().build(),
                                            new Http2MultiplexHandler(stream));
                        }
                    })
                    .bind(InetAddress.getLoopbackAddress(), port)
                    .sync()
                    .channel();
            System.out.printf(
                    "h2c-plaintext listening on 127.0.0.1:%d (transport %s, %d event-loop threads)%n",
                    port, epoll ? "epoll" : "nio", threads);
            server.closeFuture().sync();
        } finally {
            group.shutdownGracefully();
        }
    }

    /** Answers each stream when its request ended. */
    @ChannelHandler.Sharable
    private static final class StreamHandler extends ChannelInboundHandlerAdapter {
        @Override
        public void channelRead(ChannelHandlerContext ctx, Object msg) {
            boolean ended = (msg instanceof Http2HeadersFrame headers && headers.isEndStream())
                    || (msg instanceof Http2DataFrame data && data.isEndStream());
            ReferenceCountUtil.release(msg);
            if (ended && ctx.channel() instanceof Http2StreamChannel) {
                Http2Headers headers = new DefaultHttp2Headers()
                        .status("200")
                        .add("content-type", "text/plain")
                        .addInt("content-length", HELLO.readableBytes());
                ctx.write(new DefaultHttp2HeadersFrame(headers));
                ctx.writeAndFlush(new DefaultHttp2DataFrame(HELLO.duplicate(), true));
            }
        }
    }
}
