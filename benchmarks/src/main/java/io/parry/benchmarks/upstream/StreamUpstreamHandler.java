package io.parry.benchmarks.upstream;

import static io.netty.handler.codec.http.HttpHeaderNames.CONTENT_LENGTH;
import static io.netty.handler.codec.http.HttpHeaderNames.CONTENT_TYPE;
import static io.netty.handler.codec.http.HttpHeaderValues.APPLICATION_OCTET_STREAM;
import static io.netty.handler.codec.http.HttpHeaderValues.TEXT_PLAIN;
import static io.netty.handler.codec.http.HttpVersion.HTTP_1_1;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.Unpooled;
import io.netty.channel.ChannelFuture;
import io.netty.channel.ChannelFutureListener;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelInboundHandlerAdapter;
import io.netty.handler.codec.http.DefaultFullHttpResponse;
import io.netty.handler.codec.http.DefaultHttpResponse;
import io.netty.handler.codec.http.HttpContent;
import io.netty.handler.codec.http.HttpMethod;
import io.netty.handler.codec.http.HttpRequest;
import io.netty.handler.codec.http.HttpResponse;
import io.netty.handler.codec.http.HttpResponseStatus;
import io.netty.handler.codec.http.HttpUtil;
import io.netty.handler.codec.http.LastHttpContent;
import java.io.IOException;
import java.nio.charset.StandardCharsets;

/**
 * Serves one connection of {@link StreamUpstreamServer}: counts and discards uploads, streams downloads.
 *
 * <p>Runs on the connection's event loop only. Every inbound content is released as soon as it is counted. While a
 * download is being written, reading stops, so a pipelined request waits in the socket instead of being answered
 * out of order (RFC 9112 section 9.3.2).
 */
final class StreamUpstreamHandler extends ChannelInboundHandlerAdapter {
    private static final long NOT_UPLOADING = -1;

    private long uploaded = NOT_UPLOADING;
    private ZeroDownload download;
    private boolean keepAlive;

    @Override
    public void channelRead(ChannelHandlerContext ctx, Object msg) {
        // A message may be both a request and its content (a decoder failure produces a full request).
        if (msg instanceof HttpRequest request) {
            onRequest(ctx, request);
        }
        if (msg instanceof HttpContent content) {
            onContent(ctx, content);
        }
    }

    @Override
    public void channelReadComplete(ChannelHandlerContext ctx) {
        ctx.flush();
    }

    @Override
    public void channelWritabilityChanged(ChannelHandlerContext ctx) {
        if (download != null && ctx.channel().isWritable()) {
            continueDownload(ctx);
        }
        ctx.fireChannelWritabilityChanged();
    }

    @Override
    public void exceptionCaught(ChannelHandlerContext ctx, Throwable cause) {
        // Peers resetting connections is routine when a client stops early; anything else is worth seeing.
        if (!(cause instanceof IOException)) {
            System.err.println("stream-upstream: closing " + ctx.channel() + ": " + cause);
        }
        ctx.close();
    }

    private void onRequest(ChannelHandlerContext ctx, HttpRequest request) {
        keepAlive = HttpUtil.isKeepAlive(request);
        if (request.decoderResult().isFailure()) {
            keepAlive = false;
            respond(ctx, HttpResponseStatus.BAD_REQUEST, "");
            return;
        }
        String uri = request.uri();
        int query = uri.indexOf('?');
        String path = query < 0 ? uri : uri.substring(0, query);
        HttpMethod method = request.method();
        if (method.equals(HttpMethod.POST) && path.equals("/upload")) {
            uploaded = 0;
        } else if (method.equals(HttpMethod.GET) && path.equals("/download")) {
            startDownload(ctx, ByteCountQuery.bytes(uri));
        } else if (method.equals(HttpMethod.GET) && path.equals("/plaintext")) {
            respond(ctx, HttpResponseStatus.OK, "ok");
        } else {
            respond(ctx, HttpResponseStatus.NOT_FOUND, "");
        }
    }

    private void onContent(ChannelHandlerContext ctx, HttpContent content) {
        boolean failed = content.decoderResult().isFailure();
        if (uploaded != NOT_UPLOADING) {
            uploaded += content.content().readableBytes();
        }
        content.release();
        if (failed) {
            // Nothing after a framing error can be trusted.
            ctx.close();
        } else if (uploaded != NOT_UPLOADING && content instanceof LastHttpContent) {
            respond(ctx, HttpResponseStatus.OK, uploaded + "\n");
            uploaded = NOT_UPLOADING;
        }
    }

    private void startDownload(ChannelHandlerContext ctx, long bytes) {
        if (bytes < 0) {
            respond(ctx, HttpResponseStatus.BAD_REQUEST, "");
            return;
        }
        HttpResponse head = new DefaultHttpResponse(HTTP_1_1, HttpResponseStatus.OK);
        head.headers().set(CONTENT_TYPE, APPLICATION_OCTET_STREAM).set(CONTENT_LENGTH, bytes);
        HttpUtil.setKeepAlive(head, keepAlive);
        ctx.write(head);
        download = new ZeroDownload(bytes);
        ctx.channel().config().setAutoRead(false);
        continueDownload(ctx);
    }

    private void continueDownload(ChannelHandlerContext ctx) {
        ChannelFuture last = download.resume(ctx);
        if (last != null) {
            download = null;
            closeUnlessKeepAlive(last);
            ctx.channel().config().setAutoRead(true);
        }
    }

    private void respond(ChannelHandlerContext ctx, HttpResponseStatus status, String text) {
        ByteBuf body = Unpooled.copiedBuffer(text, StandardCharsets.US_ASCII);
        var response = new DefaultFullHttpResponse(HTTP_1_1, status, body);
        response.headers().set(CONTENT_TYPE, TEXT_PLAIN).setInt(CONTENT_LENGTH, body.readableBytes());
        HttpUtil.setKeepAlive(response, keepAlive);
        closeUnlessKeepAlive(ctx.write(response));
    }

    private void closeUnlessKeepAlive(ChannelFuture written) {
        if (!keepAlive) {
            written.addListener(ChannelFutureListener.CLOSE);
        }
    }
}
