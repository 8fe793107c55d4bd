package io.parry.benchmarks.capacity;

import io.netty.buffer.Unpooled;
import io.netty.channel.ChannelFutureListener;
import io.netty.channel.ChannelHandlerContext;
import io.netty.handler.codec.http.DefaultFullHttpResponse;
import io.netty.handler.codec.http.FullHttpResponse;
import io.netty.handler.codec.http.HttpHeaderNames;
import io.netty.handler.codec.http.HttpHeaderValues;
import io.netty.handler.codec.http.HttpResponseStatus;
import io.netty.handler.codec.http.HttpVersion;
import java.nio.charset.StandardCharsets;
import java.util.ArrayDeque;
import java.util.concurrent.TimeUnit;

/**
 * The permits of a {@link FixedCapacityServer} and the line of requests waiting for one. Confined to the server's
 * single event loop: every connection is registered on it, so the counts need no synchronisation.
 */
final class ServiceLine {
    private static final byte[] OK = "ok".getBytes(StandardCharsets.US_ASCII);

    private final ArrayDeque<Waiting> waiting = new ArrayDeque<>();
    private final long serviceMillis;
    private int free;

    ServiceLine(int permits, long serviceMillis) {
        this.free = permits;
        this.serviceMillis = serviceMillis;
    }

    /** Serves the request now if a permit is free, or when one is. */
    void enter(ChannelHandlerContext ctx, boolean keepAlive) {
        Waiting request = new Waiting(ctx, keepAlive);
        if (free > 0) {
            free--;
            serve(request);
        } else {
            waiting.add(request);
        }
    }

    private void serve(Waiting request) {
        request.ctx.executor().schedule(() -> served(request), serviceMillis, TimeUnit.MILLISECONDS);
    }

    private void served(Waiting request) {
        answer(request);
        Waiting next = waiting.poll();
        while (next != null && !next.ctx.channel().isActive()) {
            next = waiting.poll(); // Its client left while it waited: it costs no service time.
        }
        if (next == null) {
            free++;
        } else {
            serve(next);
        }
    }

    private static void answer(Waiting request) {
        if (!request.ctx.channel().isActive()) {
            return;
        }
        FullHttpResponse response =
                new DefaultFullHttpResponse(HttpVersion.HTTP_1_1, HttpResponseStatus.OK, Unpooled.wrappedBuffer(OK));
        response.headers()
                .set(HttpHeaderNames.CONTENT_TYPE, HttpHeaderValues.TEXT_PLAIN)
                .setInt(HttpHeaderNames.CONTENT_LENGTH, OK.length);
        if (request.keepAlive) {
            request.ctx.writeAndFlush(response);
        } else {
            request.ctx.writeAndFlush(response).addListener(ChannelFutureListener.CLOSE);
        }
    }

    private record Waiting(ChannelHandlerContext ctx, boolean keepAlive) {}
}
