package io.parry.client;

import io.netty.bootstrap.ServerBootstrap;
import io.netty.buffer.ByteBuf;
import io.netty.buffer.Unpooled;
import io.netty.channel.Channel;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelInboundHandlerAdapter;
import io.netty.channel.ChannelInitializer;
import io.netty.channel.MultiThreadIoEventLoopGroup;
import io.netty.channel.nio.NioIoHandler;
import io.netty.channel.socket.nio.NioServerSocketChannel;
import io.netty.handler.codec.http.DefaultFullHttpResponse;
import io.netty.handler.codec.http.FullHttpRequest;
import io.netty.handler.codec.http.HttpHeaderNames;
import io.netty.handler.codec.http.HttpObjectAggregator;
import io.netty.handler.codec.http.HttpResponseStatus;
import io.netty.handler.codec.http.HttpServerCodec;
import io.netty.handler.codec.http.HttpVersion;
import io.netty.handler.codec.http2.DefaultHttp2DataFrame;
import io.netty.handler.codec.http2.DefaultHttp2Headers;
import io.netty.handler.codec.http2.DefaultHttp2HeadersFrame;
import io.netty.handler.codec.http2.DefaultHttp2ResetFrame;
import io.netty.handler.codec.http2.Http2DataFrame;
import io.netty.handler.codec.http2.Http2Error;
import io.netty.handler.codec.http2.Http2FrameCodec;
import io.netty.handler.codec.http2.Http2FrameCodecBuilder;
import io.netty.handler.codec.http2.Http2Headers;
import io.netty.handler.codec.http2.Http2HeadersFrame;
import io.netty.handler.codec.http2.Http2MultiplexHandler;
import io.netty.handler.codec.http2.Http2PingFrame;
import io.netty.handler.codec.http2.Http2ResetFrame;
import io.netty.handler.codec.http2.Http2Settings;
import io.netty.handler.codec.http2.Http2StreamChannel;
import io.netty.handler.ssl.ApplicationProtocolNames;
import io.netty.handler.ssl.ApplicationProtocolNegotiationHandler;
import io.netty.handler.ssl.SslContext;
import io.netty.util.CharsetUtil;
import io.netty.util.ReferenceCountUtil;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * A Netty upstream for the client's TLS and HTTP/2 tests: HTTP/2 in cleartext (prior knowledge) or
 * over TLS, where ALPN may also pick HTTP/1.1. Paths: {@code /hold} answers when {@link #release()}
 * is called; {@code /reset} resets the stream; {@code /goaway} on the first connection sends a GOAWAY
 * whose last stream id leaves that stream unprocessed; {@code /big} answers 8 MiB of {@code x} in
 * 16 KiB frames; anything else answers with the connection's number, the request body echoed after
 * it, and trailers ({@code grpc-status: 0}). It counts the streams the client reset and its PINGs.
 */
final class TestUpstream implements AutoCloseable {
    static final int BIG = 8 * 1024 * 1024;

    private final MultiThreadIoEventLoopGroup group = new MultiThreadIoEventLoopGroup(1, NioIoHandler.newFactory());
    private final Channel server;
    private final int maxStreams;
    private final AtomicInteger connections = new AtomicInteger();
    /** The connection number of each stream received, in order. */
    final List<Integer> streamConnections = new CopyOnWriteArrayList<>();
    /** The request headers of each stream, in order. */
    final List<Http2Headers> requests = new CopyOnWriteArrayList<>();

    private final List<Runnable> held = new CopyOnWriteArrayList<>();
    private final Map<Integer, Http2FrameCodec> codecs = new ConcurrentHashMap<>();
    volatile CountDownLatch holding = new CountDownLatch(0);
    /** Streams the client reset. */
    final AtomicInteger resets = new AtomicInteger();
    /** Streams whose request header block ended them (no DATA frame followed). */
    final AtomicInteger headEndedStreams = new AtomicInteger();
    /** PING frames received (not acknowledgements). */
    final AtomicInteger pings = new AtomicInteger();

    private TestUpstream(SslContext tls, int maxStreams) throws InterruptedException {
        this.maxStreams = maxStreams;
        this.server = new ServerBootstrap()
                .group(group)
                .channel(NioServerSocketChannel.class)
                .childHandler(new ChannelInitializer<Channel>() {
                    @Override
                    protected void initChannel(Channel ch) {
                        int number = connections.incrementAndGet();
                        if (tls == null) {
                            addHttp2(ch, number);
                            return;
                        }
                        ch.pipeline().addLast(tls.newHandler(ch.alloc()));
                        ch.pipeline()
                                .addLast(new ApplicationProtocolNegotiationHandler(ApplicationProtocolNames.HTTP_1_1) {
                                    @Override
                                    protected void configurePipeline(ChannelHandlerContext ctx, String protocol) {
                                        if (ApplicationProtocolNames.HTTP_2.equals(protocol)) {
                                            addHttp2(ctx.channel(), number);
                                        } else {
                                            addHttp1(ctx.channel(), number);
                                        }
                                    }
                                });
                    }
                })
                .bind("127.0.0.1", 0)
                .sync()
                .channel();
    }

    static TestUpstream cleartext(int maxStreams) throws InterruptedException {
        return new TestUpstream(null, maxStreams);
    }

    static TestUpstream tls(SslContext context) throws InterruptedException {
        return new TestUpstream(context, 100);
    }

    int port() {
        return ((java.net.InetSocketAddress) server.localAddress()).getPort();
    }

    int connections() {
        return connections.get();
    }

    /** Answers every held stream. */
    void release() {
        for (Runnable answer : held) {
            answer.run();
        }
        held.clear();
    }

    @Override
    public void close() {
        server.close().syncUninterruptibly();
        group.shutdownGracefully(0, 1, java.util.concurrent.TimeUnit.SECONDS).syncUninterruptibly();
    }

    private void addHttp2(Channel channel, int number) {
        Http2FrameCodec codec = Http2FrameCodecBuilder.forServer()
                .initialSettings(Http2Settings.defaultSettings().maxConcurrentStreams(maxStreams))
                .build();
        codecs.put(number, codec);
        channel.pipeline().addLast(codec, new Http2MultiplexHandler(new ChannelInitializer<Http2StreamChannel>() {
            @Override
            protected void initChannel(Http2StreamChannel stream) {
                stream.pipeline().addLast(new StreamHandler(number));
            }
        }));
        channel.pipeline().addLast(new ChannelInboundHandlerAdapter() {
            @Override
            public void channelRead(ChannelHandlerContext ctx, Object msg) {
                if (msg instanceof Http2PingFrame ping && !ping.ack()) {
                    pings.incrementAndGet();
                }
                ReferenceCountUtil.release(msg);
            }
        });
    }

    private static void addHttp1(Channel channel, int number) {
        channel.pipeline()
                .addLast(new HttpServerCodec(), new HttpObjectAggregator(1 << 20), new ChannelInboundHandlerAdapter() {
                    @Override
                    public void channelRead(ChannelHandlerContext ctx, Object msg) {
                        ((FullHttpRequest) msg).release();
                        DefaultFullHttpResponse response = new DefaultFullHttpResponse(
                                HttpVersion.HTTP_1_1,
                                HttpResponseStatus.OK,
                                Unpooled.copiedBuffer("http/1.1 connection " + number, CharsetUtil.UTF_8));
                        response.headers()
                                .setInt(
                                        HttpHeaderNames.CONTENT_LENGTH,
                                        response.content().readableBytes());
                        ctx.writeAndFlush(response);
                    }
                });
    }

    /** One stream's request, answered when it ended. */
    private final class StreamHandler extends ChannelInboundHandlerAdapter {
        private final int connection;
        private final StringBuilder body = new StringBuilder();
        private Http2Headers request;

        StreamHandler(int connection) {
            this.connection = connection;
        }

        @Override
        public void channelRead(ChannelHandlerContext ctx, Object msg) {
            if (msg instanceof Http2HeadersFrame headers) {
                if (request == null) {
                    request = headers.headers();
                    requests.add(request);
                    streamConnections.add(connection);
                    if (headers.isEndStream()) {
                        headEndedStreams.incrementAndGet();
                    }
                }
                if (headers.isEndStream()) {
                    answer(ctx);
                }
            } else if (msg instanceof Http2DataFrame data) {
                body.append(data.content().toString(CharsetUtil.UTF_8));
                boolean end = data.isEndStream();
                data.release();
                if (end) {
                    answer(ctx);
                }
            }
        }

        @Override
        public void userEventTriggered(ChannelHandlerContext ctx, Object event) {
            if (event instanceof Http2ResetFrame) {
                resets.incrementAndGet();
            }
            ctx.fireUserEventTriggered(event);
        }

        private void answer(ChannelHandlerContext ctx) {
            String path = request.path().toString();
            switch (path) {
                case "/hold" -> {
                    held.add(() -> ctx.executor().execute(() -> ok(ctx)));
                    holding.countDown();
                }
                case "/reset" -> ctx.writeAndFlush(new DefaultHttp2ResetFrame(Http2Error.INTERNAL_ERROR));
                case "/big" -> big(ctx);
                case "/goaway" -> {
                    if (connection == 1) {
                        int stream =
                                ((Http2StreamChannel) ctx.channel()).stream().id();
                        Http2FrameCodec codec = codecs.get(connection);
                        ChannelHandlerContext parent =
                                ctx.channel().parent().pipeline().context(codec);
                        codec.goAway(
                                parent,
                                Math.max(0, stream - 2),
                                Http2Error.NO_ERROR.code(),
                                Unpooled.EMPTY_BUFFER,
                                parent.newPromise());
                        parent.flush();
                    } else {
                        ok(ctx);
                    }
                }
                default -> ok(ctx);
            }
        }

        private void big(ChannelHandlerContext ctx) {
            ctx.write(new DefaultHttp2HeadersFrame(new DefaultHttp2Headers().status("200")));
            byte[] chunk = new byte[16 * 1024];
            java.util.Arrays.fill(chunk, (byte) 'x');
            for (int i = 0; i < BIG / chunk.length; i++) {
                ctx.write(new DefaultHttp2DataFrame(Unpooled.wrappedBuffer(chunk), i == BIG / chunk.length - 1));
            }
            ctx.flush();
        }

        private void ok(ChannelHandlerContext ctx) {
            ctx.write(new DefaultHttp2HeadersFrame(
                    new DefaultHttp2Headers().status("200").add("x-connection", String.valueOf(connection))));
            ByteBuf data = Unpooled.copiedBuffer("connection " + connection + body, CharsetUtil.UTF_8);
            ctx.write(new DefaultHttp2DataFrame(data));
            ctx.writeAndFlush(new DefaultHttp2HeadersFrame(new DefaultHttp2Headers().add("grpc-status", "0"), true));
        }
    }
}
