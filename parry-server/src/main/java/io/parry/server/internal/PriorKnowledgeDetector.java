package io.parry.server.internal;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.ByteBufUtil;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelPipeline;
import io.netty.handler.codec.ByteToMessageDecoder;
import io.netty.handler.codec.http2.Http2CodecUtil;
import java.util.List;

/**
 * Looks at the first bytes of a cleartext connection: if they are the HTTP/2 client preface (RFC
 * 9113, section 3.3, prior knowledge), the HTTP/1.1 handlers make way for {@link Http2Pipeline}'s;
 * at the first byte that differs it steps aside. Either way it leaves the pipeline after the first
 * read or two, and passes on every byte it saw: an HTTP/1.1 connection pays for it once.
 */
final class PriorKnowledgeDetector extends ByteToMessageDecoder {
    private static final ByteBuf PREFACE = Http2CodecUtil.connectionPrefaceBuf();

    private final ServerRuntime runtime;

    PriorKnowledgeDetector(ServerRuntime runtime) {
        this.runtime = runtime;
    }

    @Override
    protected void decode(ChannelHandlerContext ctx, ByteBuf in, List<Object> out) {
        int length = Math.min(in.readableBytes(), PREFACE.readableBytes());
        if (!ByteBufUtil.equals(in, in.readerIndex(), PREFACE, PREFACE.readerIndex(), length)) {
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
        Http2Pipeline.configure(pipeline, runtime);
        pipeline.remove(this); // Hands what it holds, the preface included, to the HTTP/2 handler.
    }
}
