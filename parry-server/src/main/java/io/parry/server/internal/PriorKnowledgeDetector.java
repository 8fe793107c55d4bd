package io.parry.server.internal;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.ByteBufUtil;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelPipeline;
import io.netty.handler.codec.ByteToMessageDecoder;
import io.netty.handler.codec.http2.Http2CodecUtil;
import io.parry.server.Rejection;
import java.util.List;

/**
 * Looks at the first bytes of a cleartext connection: if they are the HTTP/2 client preface (RFC
 * 9113, section 3.3, prior knowledge), the HTTP/1.1 handlers make way for {@link Http2Pipeline}'s;
 * at the first byte that differs it steps aside. Either way it leaves the pipeline after the first
 * read or two, and passes on every byte it saw: an HTTP/1.1 connection pays for it once.
 */
final class PriorKnowledgeDetector extends ByteToMessageDecoder {
    private static final ByteBuf PREFACE = Http2CodecUtil.connectionPrefaceBuf();

    private static final byte[] HTTP = {'H', 'T', 'T', 'P', '/'};

    private final ServerRuntime runtime;

    PriorKnowledgeDetector(ServerRuntime runtime) {
        this.runtime = runtime;
    }

    @Override
    protected void decode(ChannelHandlerContext ctx, ByteBuf in, List<Object> out) {
        int length = Math.min(in.readableBytes(), PREFACE.readableBytes());
        if (!ByteBufUtil.equals(in, in.readerIndex(), PREFACE, PREFACE.readerIndex(), length)) {
            if (isNoHttpLine(in)) {
                // RFC 9113, section 3.4: an invalid preface is a connection error; no HTTP/1.1 client
                // sends such a line, so nobody could read an HTTP/1.1 answer to it either.
                runtime.rejections.record(
                        Rejection.HTTP2_PROTOCOL_ERROR, ctx.channel().remoteAddress(), "invalid connection preface");
                in.skipBytes(in.readableBytes());
                ctx.close();
                return;
            }
            ctx.pipeline().remove(this);
            return;
        }
        if (length < PREFACE.readableBytes()) {
            return; // A prefix of the preface so far: wait for the rest.
        }
        ChannelPipeline pipeline = ctx.pipeline();
        pipeline.remove(ServerInitializer.DECODER);
        pipeline.remove(ServerInitializer.ENCODER);
        pipeline.remove(ServerInitializer.CONNECTION);
        Http2Pipeline.configure(pipeline, runtime, null);
        pipeline.remove(this); // Hands what it holds, the preface included, to the HTTP/2 handler.
    }

    /**
     * Whether the first line, when the first read holds it whole, has the three parts of a request
     * line but no HTTP version in the third: neither HTTP/1.x nor the HTTP/2 preface. Anything else
     * is left to the HTTP/1.1 decoder, which answers a malformed request with 400.
     */
    private static boolean isNoHttpLine(ByteBuf in) {
        int start = in.readerIndex();
        int end = in.indexOf(start, in.writerIndex(), (byte) '\n');
        if (end < 0) {
            return false;
        }
        if (end > start && in.getByte(end - 1) == '\r') {
            end--;
        }
        int spaces = 0;
        int lastSpace = -1;
        for (int i = start; i < end; i++) {
            if (in.getByte(i) == ' ') {
                spaces++;
                lastSpace = i;
            }
        }
        if (spaces != 2 || end - lastSpace - 1 < HTTP.length) {
            return spaces == 2;
        }
        for (int i = 0; i < HTTP.length; i++) {
            if ((in.getByte(lastSpace + 1 + i) | 0x20) != (HTTP[i] | 0x20)) {
                return true;
            }
        }
        return false;
    }
}
