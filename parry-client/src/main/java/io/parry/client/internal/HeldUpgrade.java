package io.parry.client.internal;

import io.netty.buffer.ByteBuf;
import io.netty.channel.Channel;
import io.netty.channel.ChannelFuture;
import io.netty.channel.ChannelHandler;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelInboundHandlerAdapter;
import io.netty.channel.ChannelPipeline;
import io.netty.util.ReferenceCountUtil;
import io.parry.http.HttpBody;
import io.parry.http.HttpData;
import io.parry.http.HttpHeaders;
import io.parry.http.spi.FixedBody;
import io.parry.transport.spi.UpgradedChannel;
import java.util.ArrayDeque;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.Flow;
import java.util.function.Consumer;

/**
 * A connection taken out of its pool by a {@code 101} response, held for whoever takes it over: the
 * only handler left in its pipeline, keeping the bytes that follow the {@code 101} until the new
 * protocol's handlers are installed. As the response's body it is empty. Confined to the connection's
 * event loop, but for {@link #subscribe}.
 */
final class HeldUpgrade extends ChannelInboundHandlerAdapter implements HttpBody, UpgradedChannel {
    private static final CompletableFuture<HttpHeaders> NO_TRAILERS =
            CompletableFuture.completedFuture(HttpHeaders.empty());

    private final Channel channel;
    private final ArrayDeque<ByteBuf> held = new ArrayDeque<>(2);
    private ChannelHandlerContext ctx;
    private boolean inactive;
    private boolean taken;

    private HeldUpgrade(Channel channel) {
        this.channel = channel;
    }

    /**
     * Replaces the HTTP decoder and the connection handler with a holder, from inside the decoder's
     * read of the {@code 101}: bytes the decoder still has pass on to the holder when it is removed.
     */
    static HeldUpgrade replace(ChannelHandlerContext connection, ChannelHandler decoder) {
        HeldUpgrade upgrade = new HeldUpgrade(connection.channel());
        connection.channel().config().setAutoRead(false);
        ChannelPipeline pipeline = connection.pipeline();
        pipeline.addAfter(pipeline.context(decoder).name(), "upgraded", upgrade);
        pipeline.remove(decoder);
        pipeline.remove(connection.handler());
        return upgrade;
    }

    @Override
    public Channel channel() {
        return channel;
    }

    @Override
    public void takeOver(Consumer<ChannelPipeline> install) {
        if (!channel.eventLoop().inEventLoop()) {
            throw new IllegalStateException("takeOver must be called on the connection's event loop");
        }
        if (taken) {
            throw new IllegalStateException("the connection was taken over or closed already");
        }
        taken = true;
        install.accept(channel.pipeline());
        channel.pipeline().remove(this);
    }

    @Override
    public void handlerAdded(ChannelHandlerContext ctx) {
        this.ctx = ctx;
    }

    @Override
    public void handlerRemoved(ChannelHandlerContext ctx) {
        if (held.isEmpty() && !inactive) {
            return;
        }
        ByteBuf bytes;
        while ((bytes = held.poll()) != null) {
            ctx.fireChannelRead(bytes);
        }
        ctx.fireChannelReadComplete();
        if (inactive) {
            ctx.fireChannelInactive();
        }
    }

    @Override
    public void channelRead(ChannelHandlerContext ctx, Object msg) {
        // The decoder ends the 101 with an empty last content; only the new protocol's bytes are kept.
        if (msg instanceof ByteBuf && ((ByteBuf) msg).isReadable() && !inactive) {
            held.add((ByteBuf) msg);
        } else {
            ReferenceCountUtil.release(msg);
        }
    }

    @Override
    public void channelReadComplete(ChannelHandlerContext ctx) {}

    @Override
    public void channelInactive(ChannelHandlerContext ctx) {
        inactive = true;
        if (taken) {
            releaseHeld(); // Closed by subscribe: nobody will read what was held.
        }
    }

    @Override
    public void exceptionCaught(ChannelHandlerContext ctx, Throwable cause) {
        ctx.close();
    }

    @Override
    public long contentLength() {
        return 0;
    }

    @Override
    public CompletionStage<HttpHeaders> trailers() {
        return NO_TRAILERS;
    }

    @Override
    public void close() {
        channel.eventLoop().execute(this::closeNow);
    }

    /**
     * The client that made the connection is closing: a connection nobody took over closes, and a WebSocket of the
     * client's goes away ({@link ClientWebSocket#goAway()}); one taken over by another owner (the proxy's relay) is
     * that owner's to close. Called on the connection's event loop.
     *
     * @return the connection's close future, or {@code null} when it is another owner's
     */
    ChannelFuture clientClosing() {
        if (!taken) {
            return closeNow();
        }
        ClientWebSocket socket = channel.pipeline().get(ClientWebSocket.class);
        if (socket == null) {
            return null;
        }
        socket.goAway();
        return channel.closeFuture();
    }

    private ChannelFuture closeNow() {
        if (!taken) {
            taken = true;
            releaseHeld();
        }
        return channel.close();
    }

    /** Read as a body, the connection is not taken over by anyone, so it closes. */
    @Override
    public void subscribe(Flow.Subscriber<? super HttpData> subscriber) {
        close();
        FixedBody.EMPTY.subscribe(subscriber);
    }

    private void releaseHeld() {
        ByteBuf bytes;
        while ((bytes = held.poll()) != null) {
            bytes.release();
        }
    }
}
