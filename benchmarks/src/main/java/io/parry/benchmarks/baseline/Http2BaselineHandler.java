package io.parry.benchmarks.baseline;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.Unpooled;
import io.netty.channel.ChannelHandlerContext;
import io.netty.handler.codec.http.HttpHeaderNames;
import io.netty.handler.codec.http.HttpResponseStatus;
import io.netty.handler.codec.http2.AbstractHttp2ConnectionHandlerBuilder;
import io.netty.handler.codec.http2.DefaultHttp2Headers;
import io.netty.handler.codec.http2.Http2ConnectionDecoder;
import io.netty.handler.codec.http2.Http2ConnectionEncoder;
import io.netty.handler.codec.http2.Http2ConnectionHandler;
import io.netty.handler.codec.http2.Http2FrameAdapter;
import io.netty.handler.codec.http2.Http2Headers;
import io.netty.handler.codec.http2.Http2Settings;
import io.netty.util.AsciiString;
import io.netty.util.collection.IntObjectHashMap;
import java.nio.charset.StandardCharsets;

/**
 * The baseline's HTTP/2 connection: answers each request stream from its header block (a request
 * body, if any, is consumed and dropped), with the same fields the hello example sends.
 */
public final class Http2BaselineHandler extends Http2ConnectionHandler {
    private static final AsciiString PLAINTEXT_PATH = AsciiString.cached("/plaintext");
    private static final AsciiString TEXT_PLAIN = AsciiString.cached("text/plain; charset=utf-8");
    private static final ByteBuf HELLO = Unpooled.unreleasableBuffer(
                    Unpooled.directBuffer().writeBytes("Hello, World!".getBytes(StandardCharsets.US_ASCII)))
            .asReadOnly();
    private static final AsciiString HELLO_LENGTH = AsciiString.cached(Integer.toString(HELLO.readableBytes()));

    private Http2BaselineHandler(
            Http2ConnectionDecoder decoder, Http2ConnectionEncoder encoder, Http2Settings settings) {
        super(decoder, encoder, settings);
    }

    /** A new connection handler: one per channel. */
    public static Http2BaselineHandler create() {
        return new Builder().build();
    }

    private void respond(ChannelHandlerContext ctx, int streamId, Http2Headers request) {
        if (!PLAINTEXT_PATH.contentEquals(request.path())) {
            Http2Headers headers = new DefaultHttp2Headers(false, 2)
                    .status(HttpResponseStatus.NOT_FOUND.codeAsText())
                    .add(HttpHeaderNames.DATE, HttpDate.now());
            encoder().writeHeaders(ctx, streamId, headers, 0, true, ctx.newPromise());
            return;
        }
        Http2Headers headers = new DefaultHttp2Headers(false, 4)
                .status(HttpResponseStatus.OK.codeAsText())
                .add(HttpHeaderNames.CONTENT_TYPE, TEXT_PLAIN)
                .add(HttpHeaderNames.DATE, HttpDate.now())
                .add(HttpHeaderNames.CONTENT_LENGTH, HELLO_LENGTH);
        encoder().writeHeaders(ctx, streamId, headers, 0, false, ctx.newPromise());
        encoder().writeData(ctx, streamId, HELLO.duplicate(), 0, true, ctx.newPromise());
    }

    /** Answers once the request has ended: at its header block, or at its last DATA frame. */
    private final class Listener extends Http2FrameAdapter {
        /** Header blocks of requests whose body is still arriving, by stream. */
        private final IntObjectHashMap<Http2Headers> pending = new IntObjectHashMap<>();

        @Override
        public void onHeadersRead(
                ChannelHandlerContext ctx, int streamId, Http2Headers headers, int padding, boolean end) {
            if (end) {
                respond(ctx, streamId, headers);
            } else {
                pending.put(streamId, headers);
            }
        }

        @Override
        public void onHeadersRead(
                ChannelHandlerContext ctx,
                int streamId,
                Http2Headers headers,
                int dependency,
                short weight,
                boolean exclusive,
                int padding,
                boolean end) {
            onHeadersRead(ctx, streamId, headers, padding, end);
        }

        @Override
        public int onDataRead(ChannelHandlerContext ctx, int streamId, ByteBuf data, int padding, boolean end) {
            Http2Headers request = end ? pending.remove(streamId) : null;
            if (request != null) {
                respond(ctx, streamId, request);
            }
            return data.readableBytes() + padding;
        }
    }

    private static final class Builder extends AbstractHttp2ConnectionHandlerBuilder<Http2BaselineHandler, Builder> {
        Builder() {
            server(true);
            initialSettings(Http2Settings.defaultSettings().maxConcurrentStreams(100));
        }

        @Override
        public Http2BaselineHandler build() {
            return super.build();
        }

        @Override
        protected Http2BaselineHandler build(
                Http2ConnectionDecoder decoder, Http2ConnectionEncoder encoder, Http2Settings initialSettings) {
            Http2BaselineHandler handler = new Http2BaselineHandler(decoder, encoder, initialSettings);
            frameListener(handler.new Listener());
            return handler;
        }
    }
}
