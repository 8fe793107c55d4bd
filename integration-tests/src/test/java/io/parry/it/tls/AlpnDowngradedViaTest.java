package io.parry.it.tls;

import static io.parry.it.tls.TlsServerTest.CA;
import static io.parry.it.tls.TlsServerTest.LOCALHOST_EC;
import static org.assertj.core.api.Assertions.assertThat;

import io.netty.bootstrap.ServerBootstrap;
import io.netty.buffer.Unpooled;
import io.netty.channel.Channel;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelInitializer;
import io.netty.channel.EventLoopGroup;
import io.netty.channel.MultiThreadIoEventLoopGroup;
import io.netty.channel.SimpleChannelInboundHandler;
import io.netty.channel.nio.NioIoHandler;
import io.netty.channel.socket.nio.NioServerSocketChannel;
import io.netty.handler.codec.http.DefaultFullHttpResponse;
import io.netty.handler.codec.http.FullHttpRequest;
import io.netty.handler.codec.http.FullHttpResponse;
import io.netty.handler.codec.http.HttpHeaderNames;
import io.netty.handler.codec.http.HttpObjectAggregator;
import io.netty.handler.codec.http.HttpResponseStatus;
import io.netty.handler.codec.http.HttpServerCodec;
import io.netty.handler.codec.http.HttpVersion;
import io.netty.handler.ssl.ApplicationProtocolConfig;
import io.netty.handler.ssl.ApplicationProtocolNames;
import io.netty.handler.ssl.SslContext;
import io.netty.handler.ssl.SslContextBuilder;
import io.parry.client.ClientOptions;
import io.parry.client.ClientProtocol;
import io.parry.client.ClientTlsOptions;
import io.parry.client.Endpoint;
import io.parry.client.HttpClient;
import io.parry.client.upstream.Upstream;
import io.parry.proxy.GuardedUpstream;
import io.parry.proxy.ProxyHandler;
import io.parry.server.Server;
import io.parry.testing.NettyLeakExtension;
import java.io.ByteArrayInputStream;
import java.net.InetSocketAddress;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.io.TempDir;

/**
 * A proxy whose client is configured for HTTP/2 names the protocol each response really came over in {@code Via}
 * (RFC 9110, section 7.6.3): {@code 1.1} when the upstream's TLS chose {@code http/1.1} by ALPN, not {@code 2}.
 */
@ExtendWith(NettyLeakExtension.class)
class AlpnDowngradedViaTest {
    @TempDir
    Path dir;

    private final EventLoopGroup upstreamLoop = new MultiThreadIoEventLoopGroup(1, NioIoHandler.newFactory());
    private HttpClient client;
    private GuardedUpstream services;
    private Server gateway;

    @AfterEach
    void stop() {
        if (gateway != null) {
            gateway.stop(Duration.ofSeconds(1));
        }
        if (services != null) {
            services.close();
        }
        if (client != null) {
            client.close();
        }
        upstreamLoop.shutdownGracefully(0, 1, TimeUnit.SECONDS);
    }

    @Test
    void namesHttp11InViaWhenAnHttp2ClientsUpstreamChoseItByAlpn() throws Exception {
        int upstreamPort = startHttp11OnlyUpstream();
        Path caBundle = Files.writeString(dir.resolve("ca.pem"), CA.pemText());
        client = HttpClient.builder()
                .options(ClientOptions.builder()
                        .protocol(ClientProtocol.H2)
                        .tls(ClientTlsOptions.builder().caBundle(caBundle).build())
                        .build())
                .build();
        services = GuardedUpstream.builder(Upstream.of("service", Endpoint.parse("https://127.0.0.1:" + upstreamPort)))
                .client(client)
                .build();
        gateway = Server.builder()
                .host("127.0.0.1")
                .port(0)
                .handler(ProxyHandler.builder(services).build())
                .options(o -> o.eventLoopThreads(1))
                .build()
                .start();

        java.net.http.HttpResponse<String> response = java.net.http.HttpClient.newBuilder()
                .version(java.net.http.HttpClient.Version.HTTP_1_1)
                .build()
                .send(
                        java.net.http.HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + gateway.port() + "/"))
                                .build(),
                        java.net.http.HttpResponse.BodyHandlers.ofString());

        assertThat(response.body()).isEqualTo("over HTTP/1.1");
        assertThat(response.headers().allValues("via")).containsExactly("1.1 parry");
    }

    /** A TLS server that offers only {@code http/1.1} by ALPN and answers with the version it was asked over. */
    private int startHttp11OnlyUpstream() throws Exception {
        SslContext tls = SslContextBuilder.forServer(
                        new ByteArrayInputStream(LOCALHOST_EC.chainPem().getBytes(StandardCharsets.US_ASCII)),
                        new ByteArrayInputStream(LOCALHOST_EC.keyPem().getBytes(StandardCharsets.US_ASCII)))
                .applicationProtocolConfig(new ApplicationProtocolConfig(
                        ApplicationProtocolConfig.Protocol.ALPN,
                        ApplicationProtocolConfig.SelectorFailureBehavior.NO_ADVERTISE,
                        ApplicationProtocolConfig.SelectedListenerFailureBehavior.ACCEPT,
                        ApplicationProtocolNames.HTTP_1_1))
                .build();
        Channel server = new ServerBootstrap()
                .group(upstreamLoop)
                .channel(NioServerSocketChannel.class)
                .childHandler(new ChannelInitializer<Channel>() {
                    @Override
                    protected void initChannel(Channel ch) {
                        ch.pipeline()
                                .addLast(tls.newHandler(ch.alloc()))
                                .addLast(new HttpServerCodec())
                                .addLast(new HttpObjectAggregator(1024))
                                .addLast(new Answer());
                    }
                })
                .bind("127.0.0.1", 0)
                .sync()
                .channel();
        return ((InetSocketAddress) server.localAddress()).getPort();
    }

    private static final class Answer extends SimpleChannelInboundHandler<FullHttpRequest> {
        @Override
        protected void channelRead0(ChannelHandlerContext ctx, FullHttpRequest request) {
            byte[] body = ("over " + request.protocolVersion()).getBytes(StandardCharsets.US_ASCII);
            FullHttpResponse response = new DefaultFullHttpResponse(
                    HttpVersion.HTTP_1_1, HttpResponseStatus.OK, Unpooled.wrappedBuffer(body));
            response.headers().set(HttpHeaderNames.CONTENT_LENGTH, body.length);
            ctx.writeAndFlush(response);
        }
    }
}
