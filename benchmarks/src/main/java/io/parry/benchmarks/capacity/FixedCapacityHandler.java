package io.parry.benchmarks.capacity;

import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.SimpleChannelInboundHandler;
import io.netty.handler.codec.http.FullHttpRequest;
import io.netty.handler.codec.http.HttpUtil;

/** Puts each request in the {@link ServiceLine}; the line answers it once it has been served. */
final class FixedCapacityHandler extends SimpleChannelInboundHandler<FullHttpRequest> {
    private final ServiceLine line;

    FixedCapacityHandler(ServiceLine line) {
        this.line = line;
    }

    @Override
    protected void channelRead0(ChannelHandlerContext ctx, FullHttpRequest request) {
        line.enter(ctx, HttpUtil.isKeepAlive(request));
    }

    @Override
    public void exceptionCaught(ChannelHandlerContext ctx, Throwable cause) {
        ctx.close();
    }
}
