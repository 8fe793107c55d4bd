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
import io.netty.handler.codec.http2.Http2SecurityUtil;
import io.netty.handler.ssl.ApplicationProtocolConfig;
import io.netty.handler.ssl.ApplicationProtocolNames;
import io.netty.handler.ssl.SslContext;
import io.netty.handler.ssl.SslContextBuilder;
import io.netty.handler.ssl.SupportedCipherSuiteFilter;
import io.parry.benchmarks.Env;
import java.io.File;
import java.net.InetAddress;
import javax.net.ssl.SSLException;

/**
 * A raw Netty HTTP/2 server (h2c with prior knowledge), written the way a careful Netty application
 * is, that Parry's HTTP/2 framing is measured against: an {@code Http2ConnectionHandler} with its own
 * frame listener ({@link Http2BaselineHandler}), no per-stream channels, no HTTP/1 object conversion.
 *
 * <p>It serves {@code GET /plaintext} as the hello example does, and 404 for anything else, on
 * 127.0.0.1. {@code PORT} (default 8082) and {@code THREADS} (default: available processors) come
 * from the environment; epoll is used when available. With {@code TLS_CERT} and {@code TLS_KEY} (a PEM
 * chain and its PKCS#8 key, as the hello example takes them) it speaks h2 over TLS, chosen by ALPN, with
 * OpenSSL (BoringSSL) when netty-tcnative loads and the JDK's TLS otherwise, as Parry does.
 *
 * <pre>{@code
 * PORT=8082 java -cp benchmarks/target/parry-benchmarks.jar io.parry.benchmarks.baseline.NettyHttp2BaselineServer
 * }</pre>
 */
public final class NettyHttp2BaselineServer {
    private NettyHttp2BaselineServer() {}

    /** Starts the server and blocks until the JVM is stopped. */
    public static void main(String[] args) throws InterruptedException, SSLException {
        int port = Env.intValue("PORT", 8082);
        SslContext tls = tls();
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
                            if (tls != null) {
                                channel.pipeline().addLast(tls.newHandler(channel.alloc()));
                            }
                            channel.pipeline().addLast(Http2BaselineHandler.create());
                        }
                    })
                    .bind(InetAddress.getLoopbackAddress(), port)
                    .sync()
                    .channel();
            System.out.printf(
                    "netty-h2-baseline listening on 127.0.0.1:%d (transport %s, %d event-loop threads, %s)%n",
                    port,
                    epoll ? "epoll" : "nio",
                    threads,
                    tls == null ? "h2c" : "h2 over TLS with " + SslContext.defaultServerProvider());
            server.closeFuture().sync();
        } finally {
            group.shutdownGracefully();
        }
    }

    /** The TLS context from TLS_CERT and TLS_KEY: ALPN offering only h2, HTTP/2's cipher suites; null without them. */
    private static SslContext tls() throws SSLException {
        String chain = System.getenv("TLS_CERT");
        String key = System.getenv("TLS_KEY");
        if (chain == null || key == null) {
            return null;
        }
        return SslContextBuilder.forServer(new File(chain), new File(key))
                .sslProvider(SslContext.defaultServerProvider())
                .ciphers(Http2SecurityUtil.CIPHERS, SupportedCipherSuiteFilter.INSTANCE)
                .applicationProtocolConfig(new ApplicationProtocolConfig(
                        ApplicationProtocolConfig.Protocol.ALPN,
                        ApplicationProtocolConfig.SelectorFailureBehavior.NO_ADVERTISE,
                        ApplicationProtocolConfig.SelectedListenerFailureBehavior.ACCEPT,
                        ApplicationProtocolNames.HTTP_2))
                .build();
    }
}
