package io.parry.benchmarks.todo;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.ObjectReader;
import com.fasterxml.jackson.databind.ObjectWriter;
import io.netty.bootstrap.ServerBootstrap;
import io.netty.buffer.ByteBuf;
import io.netty.buffer.ByteBufInputStream;
import io.netty.buffer.Unpooled;
import io.netty.channel.Channel;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelInitializer;
import io.netty.channel.ChannelOption;
import io.netty.channel.EventLoopGroup;
import io.netty.channel.MultiThreadIoEventLoopGroup;
import io.netty.channel.SimpleChannelInboundHandler;
import io.netty.channel.epoll.Epoll;
import io.netty.channel.epoll.EpollIoHandler;
import io.netty.channel.epoll.EpollServerSocketChannel;
import io.netty.channel.nio.NioIoHandler;
import io.netty.channel.socket.nio.NioServerSocketChannel;
import io.netty.handler.codec.http.DefaultFullHttpResponse;
import io.netty.handler.codec.http.FullHttpRequest;
import io.netty.handler.codec.http.FullHttpResponse;
import io.netty.handler.codec.http.HttpHeaderNames;
import io.netty.handler.codec.http.HttpHeaderValues;
import io.netty.handler.codec.http.HttpObjectAggregator;
import io.netty.handler.codec.http.HttpResponseStatus;
import io.netty.handler.codec.http.HttpServerCodec;
import io.netty.handler.codec.http.HttpUtil;
import io.netty.handler.codec.http.HttpVersion;
import jakarta.validation.Validation;
import jakarta.validation.Validator;
import java.io.IOException;
import java.io.InputStream;
import java.util.concurrent.atomic.AtomicLong;

/**
 * The raw-Netty baseline of the typed-JSON benchmark, written as a careful Netty application would:
 * aggregate the body (bounded), decode it with a shared Jackson reader, validate it with Hibernate
 * Validator, answer 201 with the encoded {@link Todo} and a Location, 400 for bad input, 415 for a
 * non-JSON body. Port from {@code PORT} (default 8081).
 */
public final class NettyTodoServer {
    private NettyTodoServer() {}

    public static void main(String[] args) throws InterruptedException {
        int port = Integer.parseInt(System.getenv().getOrDefault("PORT", "8081"));
        boolean epoll = Epoll.isAvailable();
        EventLoopGroup group = new MultiThreadIoEventLoopGroup(
                Runtime.getRuntime().availableProcessors(),
                epoll ? EpollIoHandler.newFactory() : NioIoHandler.newFactory());
        TodoHandler handler = new TodoHandler();
        Channel channel = new ServerBootstrap()
                .group(group)
                .channel(epoll ? EpollServerSocketChannel.class : NioServerSocketChannel.class)
                .option(ChannelOption.SO_BACKLOG, 4096)
                .childOption(ChannelOption.TCP_NODELAY, true)
                .childHandler(new ChannelInitializer<>() {
                    @Override
                    protected void initChannel(Channel ch) {
                        ch.pipeline()
                                .addLast(new HttpServerCodec())
                                .addLast(new HttpObjectAggregator(1 << 20))
                                .addLast(handler);
                    }
                })
                .bind("127.0.0.1", port)
                .sync()
                .channel();
        System.out.println("netty-todo listening on 127.0.0.1:" + port + (epoll ? " (epoll)" : " (nio)"));
        channel.closeFuture().sync();
    }

    @io.netty.channel.ChannelHandler.Sharable
    private static final class TodoHandler extends SimpleChannelInboundHandler<FullHttpRequest> {
        private final ObjectMapper mapper = new ObjectMapper()
                .disable(com.fasterxml.jackson.databind.DeserializationFeature.FAIL_ON_UNKNOWN_PROPERTIES);
        private final ObjectReader reader = mapper.readerFor(NewTodo.class);
        private final ObjectWriter writer = mapper.writerFor(Todo.class);
        private final Validator validator =
                Validation.buildDefaultValidatorFactory().getValidator();
        private final AtomicLong ids = new AtomicLong();

        @Override
        protected void channelRead0(ChannelHandlerContext ctx, FullHttpRequest request) throws IOException {
            FullHttpResponse response = respond(request);
            boolean keepAlive = HttpUtil.isKeepAlive(request);
            HttpUtil.setContentLength(response, response.content().readableBytes());
            if (keepAlive) {
                ctx.write(response);
            } else {
                ctx.write(response).addListener(io.netty.channel.ChannelFutureListener.CLOSE);
            }
        }

        @Override
        public void channelReadComplete(ChannelHandlerContext ctx) {
            ctx.flush();
        }

        private FullHttpResponse respond(FullHttpRequest request) throws IOException {
            String type = request.headers().get(HttpHeaderNames.CONTENT_TYPE);
            if (type == null || !type.startsWith("application/json")) {
                return status(HttpResponseStatus.UNSUPPORTED_MEDIA_TYPE);
            }
            NewTodo todo;
            try (ByteBufInputStream in = new ByteBufInputStream(request.content())) {
                todo = reader.readValue((InputStream) in);
            } catch (com.fasterxml.jackson.core.JacksonException e) {
                return status(HttpResponseStatus.BAD_REQUEST);
            }
            if (!validator.validate(todo).isEmpty()) {
                return status(HttpResponseStatus.BAD_REQUEST);
            }
            long id = ids.incrementAndGet();
            ByteBuf body = Unpooled.wrappedBuffer(writer.writeValueAsBytes(Todo.from(id, todo)));
            FullHttpResponse response =
                    new DefaultFullHttpResponse(HttpVersion.HTTP_1_1, HttpResponseStatus.CREATED, body);
            response.headers()
                    .set(HttpHeaderNames.CONTENT_TYPE, HttpHeaderValues.APPLICATION_JSON)
                    .set(HttpHeaderNames.LOCATION, "/todos/" + id);
            return response;
        }

        private static FullHttpResponse status(HttpResponseStatus status) {
            return new DefaultFullHttpResponse(HttpVersion.HTTP_1_1, status, Unpooled.EMPTY_BUFFER);
        }
    }
}
