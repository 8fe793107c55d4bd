package io.parry.server.websocket;

import io.netty.buffer.ByteBuf;
import io.netty.channel.ChannelHandlerContext;
import io.netty.handler.codec.MessageToMessageEncoder;
import io.netty.handler.codec.http.websocketx.BinaryWebSocketFrame;
import io.netty.handler.codec.http.websocketx.ContinuationWebSocketFrame;
import io.netty.handler.codec.http.websocketx.TextWebSocketFrame;
import io.netty.handler.codec.http.websocketx.WebSocketFrame;
import io.netty.handler.codec.http.websocketx.extensions.WebSocketExtension;
import java.util.List;

/**
 * permessage-deflate for a client that asked for a server window under 15 bits, which the JDK's zlib
 * cannot compress with: each data frame's payload becomes DEFLATE stored blocks (RFC 1951, section
 * 3.2.4), which refer to no earlier bytes and so fit any window. A message's last frame ends with the
 * first byte of an empty stored block, whose other four ({@code 00 00 FF FF}) RFC 7692, section 7.2.1
 * leaves out and the receiver appends; the first frame carries RSV1.
 */
final class StoredDeflateEncoder extends MessageToMessageEncoder<WebSocketFrame> {
    private static final int MAX_BLOCK = 65_535;

    @Override
    public boolean acceptOutboundMessage(Object msg) throws Exception {
        return msg instanceof TextWebSocketFrame
                || msg instanceof BinaryWebSocketFrame
                || msg instanceof ContinuationWebSocketFrame;
    }

    @Override
    protected void encode(ChannelHandlerContext ctx, WebSocketFrame frame, List<Object> out) {
        ByteBuf data = frame.content();
        int length = data.readableBytes();
        int blocks = (length + MAX_BLOCK - 1) / MAX_BLOCK;
        boolean last = frame.isFinalFragment();
        ByteBuf stored = ctx.alloc().buffer(length + 5 * blocks + 1);
        for (int from = data.readerIndex(), end = from + length; from < end; from += MAX_BLOCK) {
            int size = Math.min(MAX_BLOCK, end - from);
            stored.writeByte(0); // BFINAL 0, BTYPE 00: stored.
            stored.writeShortLE(size);
            stored.writeShortLE(~size);
            stored.writeBytes(data, from, size);
        }
        if (last) {
            stored.writeByte(0);
        }
        if (frame instanceof ContinuationWebSocketFrame) {
            out.add(new ContinuationWebSocketFrame(last, frame.rsv(), stored));
        } else if (frame instanceof TextWebSocketFrame) {
            out.add(new TextWebSocketFrame(last, frame.rsv() | WebSocketExtension.RSV1, stored));
        } else {
            out.add(new BinaryWebSocketFrame(last, frame.rsv() | WebSocketExtension.RSV1, stored));
        }
    }
}
