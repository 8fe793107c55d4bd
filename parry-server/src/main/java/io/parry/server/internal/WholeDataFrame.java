package io.parry.server.internal;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.ByteBufAllocator;
import io.netty.handler.codec.http2.Http2CodecUtil;
import io.netty.handler.codec.http2.Http2Flags;
import io.netty.handler.codec.http2.Http2FrameTypes;
import io.parry.http.HttpData;

/**
 * A small response body as its stream's last DATA frame, header and payload in one direct buffer
 * (RFC 9113, section 6.1): one write where Netty's frame writer makes two, of a frame header it
 * allocates and a slice of the body, which a heap body has the transport copy again.
 */
final class WholeDataFrame {
    /** The largest body sent so: every peer takes frames this large (RFC 9113, section 4.2). */
    static final int MAX_BYTES = Http2CodecUtil.MAX_FRAME_SIZE_LOWER_BOUND;

    private static final Http2Flags END_STREAM = new Http2Flags().endOfStream(true);

    private WholeDataFrame() {}

    /** The frame of {@code body} (at most {@link #MAX_BYTES}) on {@code streamId}, with END_STREAM and no padding. */
    static ByteBuf of(ByteBufAllocator allocator, int streamId, HttpData body) {
        int length = body.length();
        ByteBuf frame = allocator.directBuffer(Http2CodecUtil.FRAME_HEADER_LENGTH + length);
        Http2CodecUtil.writeFrameHeader(frame, length, Http2FrameTypes.DATA, END_STREAM, streamId);
        return body.read(frame::writeBytes);
    }
}
