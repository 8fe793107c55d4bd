package io.parry.benchmarks.baseline;

import static java.util.concurrent.TimeUnit.MILLISECONDS;

import io.netty.buffer.Unpooled;
import io.netty.channel.ChannelFuture;
import io.netty.channel.ChannelFutureListener;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelInboundHandlerAdapter;
import io.netty.handler.codec.http.FullHttpResponse;
import io.netty.handler.codec.http.HttpContent;
import io.netty.handler.codec.http.HttpMethod;
import io.netty.handler.codec.http.HttpRequest;
import io.netty.handler.codec.http.HttpResponseStatus;
import io.netty.handler.codec.http.HttpUtil;
import io.netty.handler.codec.http.HttpVersion;
import io.netty.handler.codec.http.LastHttpContent;
import io.netty.util.ReferenceCountUtil;
import io.netty.util.concurrent.ScheduledFuture;
import java.io.IOException;
import java.util.ArrayDeque;
import java.util.Queue;

/**
 * Serves one connection: routes each request, streams echo bodies back, and answers in request order.
 *
 * <p>Runs on the connection's event loop only. Responses are written without flushing while the codec delivers a
 * batch of messages and flushed once in {@link #channelReadComplete}, so pipelined requests share a syscall. While
 * a delayed response is pending, later pipelined messages wait in a queue and reading stops, because HTTP/1.1
 * answers in order (RFC 9112 section 9.3.2). An echo stops reading while the channel is not writable, so a slow
 * reader bounds the memory a fast writer can make the server hold.
 */
public final class BaselineHandler extends ChannelInboundHandlerAdapter {
    private final Queue<Object> deferred = new ArrayDeque<>();
    private ScheduledFuture<?> pendingDelay;
    private HttpVersion version = HttpVersion.HTTP_1_1;
    private boolean keepAlive;
    private boolean echoing;

    @Override
    public void channelRead(ChannelHandlerContext ctx, Object msg) {
        if (pendingDelay != null) {
            deferred.add(msg);
        } else {
            dispatch(ctx, msg);
        }
    }

    @Override
    public void channelReadComplete(ChannelHandlerContext ctx) {
        ctx.flush();
    }

    @Override
    public void channelWritabilityChanged(ChannelHandlerContext ctx) {
        updateAutoRead(ctx);
        ctx.fireChannelWritabilityChanged();
    }

    @Override
    public void channelInactive(ChannelHandlerContext ctx) {
        if (pendingDelay != null) {
            pendingDelay.cancel(false);
            pendingDelay = null;
        }
        deferred.forEach(ReferenceCountUtil::release);
        deferred.clear();
        ctx.fireChannelInactive();
    }

    @Override
    public void exceptionCaught(ChannelHandlerContext ctx, Throwable cause) {
        // Peers resetting connections is routine under load; anything else is a bug worth seeing.
        if (!(cause instanceof IOException)) {
            System.err.println("netty-baseline: closing " + ctx.channel() + ": " + cause);
        }
        ctx.close();
    }

    private void dispatch(ChannelHandlerContext ctx, Object msg) {
        // A message may be both a request and its content (a decoder failure produces a full request).
        if (msg instanceof HttpRequest request) {
            onRequest(ctx, request);
        }
        if (msg instanceof HttpContent content) {
            onContent(ctx, content);
        }
    }

    private void onRequest(ChannelHandlerContext ctx, HttpRequest request) {
        version = request.protocolVersion();
        keepAlive = HttpUtil.isKeepAlive(request);
        if (request.decoderResult().isFailure()) {
            keepAlive = false;
            respond(ctx, Responses.empty(HttpResponseStatus.BAD_REQUEST));
            return;
        }
        String uri = request.uri();
        int query = uri.indexOf('?');
        String path = query < 0 ? uri : uri.substring(0, query);
        route(ctx, request, path);
    }

    private void route(ChannelHandlerContext ctx, HttpRequest request, String path) {
        HttpMethod method = request.method();
        if (method.equals(HttpMethod.GET) && path.equals("/plaintext")) {
            respond(ctx, Responses.plaintext());
        } else if (method.equals(HttpMethod.GET) && path.equals("/json")) {
            respond(ctx, Responses.json(ctx.alloc()));
        } else if (method.equals(HttpMethod.POST) && path.equals("/echo")) {
            startEcho(ctx, request);
        } else if (method.equals(HttpMethod.GET) && path.equals("/delay")) {
            delay(ctx, DelayQuery.millis(request.uri()));
        } else {
            respond(ctx, Responses.empty(HttpResponseStatus.NOT_FOUND));
        }
    }

    private void onContent(ChannelHandlerContext ctx, HttpContent content) {
        if (content.decoderResult().isFailure()) {
            // Nothing after a framing error can be trusted; close once what is already written (a 400 or an echo
            // cut short, which the client then sees as truncated) has gone out.
            content.release();
            ctx.writeAndFlush(Unpooled.EMPTY_BUFFER).addListener(ChannelFutureListener.CLOSE);
        } else if (echoing) {
            echo(ctx, content);
        } else {
            content.release();
        }
    }

    private void startEcho(ChannelHandlerContext ctx, HttpRequest request) {
        echoing = true;
        var head = Responses.echoHead(request);
        HttpUtil.setKeepAlive(head.headers(), version, keepAlive);
        ctx.write(head);
    }

    private void echo(ChannelHandlerContext ctx, HttpContent content) {
        ChannelFuture written = ctx.write(content);
        if (content instanceof LastHttpContent) {
            echoing = false;
            closeUnlessKeepAlive(written);
        }
        updateAutoRead(ctx);
    }

    private void delay(ChannelHandlerContext ctx, long millis) {
        if (millis < 0) {
            respond(ctx, Responses.empty(HttpResponseStatus.BAD_REQUEST));
            return;
        }
        pendingDelay = ctx.executor().schedule(() -> finishDelay(ctx), millis, MILLISECONDS);
        updateAutoRead(ctx);
    }

    private void finishDelay(ChannelHandlerContext ctx) {
        pendingDelay = null;
        respond(ctx, Responses.plaintext());
        while (pendingDelay == null && !deferred.isEmpty()) {
            dispatch(ctx, deferred.poll());
        }
        ctx.flush();
        updateAutoRead(ctx);
    }

    private void respond(ChannelHandlerContext ctx, FullHttpResponse response) {
        HttpUtil.setKeepAlive(response.headers(), version, keepAlive);
        closeUnlessKeepAlive(ctx.write(response));
    }

    private void closeUnlessKeepAlive(ChannelFuture written) {
        if (!keepAlive) {
            written.addListener(ChannelFutureListener.CLOSE);
        }
    }

    private void updateAutoRead(ChannelHandlerContext ctx) {
        ctx.channel().config().setAutoRead(pendingDelay == null && ctx.channel().isWritable());
    }
}
