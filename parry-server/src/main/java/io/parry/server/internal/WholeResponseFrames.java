package io.parry.server.internal;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.ByteBufAllocator;
import io.netty.handler.codec.http2.Http2CodecUtil;
import io.netty.handler.codec.http2.Http2Exception;
import io.netty.handler.codec.http2.Http2Flags;
import io.netty.handler.codec.http2.Http2FrameTypes;
import io.netty.handler.codec.http2.Http2Headers;
import io.netty.handler.codec.http2.Http2HeadersEncoder;
import io.parry.http.HttpData;

/**
 * A small whole response as the frames of its stream, in one direct buffer: HEADERS (with CONTINUATION
 * frames if the block is larger than a frame, RFC 9113, section 6.10), then the body as one DATA
 * frame with END_STREAM (section 6.1). One write where Netty's frame writer makes four, of two frame
 * headers it allocates, a header block and a slice of the body, each with a promise of its own.
 */
final class WholeResponseFrames {
    /** The largest body sent so: every peer takes frames this large (RFC 9113, section 4.2). */
    static final int MAX_BODY_BYTES = Http2CodecUtil.MAX_FRAME_SIZE_LOWER_BOUND;

    private static final int HEADER = Http2CodecUtil.FRAME_HEADER_LENGTH;
    private static final Http2Flags END_HEADERS = new Http2Flags().endOfHeaders(true);
    private static final Http2Flags NO_FLAGS = new Http2Flags();
    private static final Http2Flags END_STREAM = new Http2Flags().endOfStream(true);
    /** Room for a small response's header block, so that the buffer rarely grows. */
    private static final int BLOCK_ROOM = 64;

    private WholeResponseFrames() {}

    /**
     * The frames of a response with {@code headers}, encoded by the connection's {@code hpack} (whose state the
     * block changes, so it must be written), and {@code body} (at most {@link #MAX_BODY_BYTES}, not empty).
     *
     * @throws Http2Exception if HPACK refuses the headers (the peer's header list size), before any change
     */
    static ByteBuf of(
            ByteBufAllocator allocator,
            Http2HeadersEncoder hpack,
            int maxFrameSize,
            int streamId,
            Http2Headers headers,
            HttpData body)
            throws Http2Exception {
        int length = body.length();
        ByteBuf frames = allocator.directBuffer(2 * HEADER + BLOCK_ROOM + length);
        try {
            frames.writerIndex(HEADER);
            hpack.encodeHeaders(streamId, headers, frames);
            int blockLength = frames.writerIndex() - HEADER;
            if (blockLength <= maxFrameSize) {
                frames.writerIndex(0);
                Http2CodecUtil.writeFrameHeader(frames, blockLength, Http2FrameTypes.HEADERS, END_HEADERS, streamId);
                frames.writerIndex(HEADER + blockLength);
            } else {
                fragment(frames, blockLength, maxFrameSize, streamId);
            }
            Http2CodecUtil.writeFrameHeader(frames, length, Http2FrameTypes.DATA, END_STREAM, streamId);
            return body.read(frames::writeBytes);
        } catch (Http2Exception | RuntimeException e) {
            frames.release();
            throw e;
        }
    }

    /** Rewrites a block larger than a frame as a HEADERS frame and CONTINUATION frames. */
    private static void fragment(ByteBuf frames, int blockLength, int maxFrameSize, int streamId) {
        ByteBuf block = frames.copy(HEADER, blockLength);
        try {
            frames.clear();
            int first = maxFrameSize;
            Http2CodecUtil.writeFrameHeader(frames, first, Http2FrameTypes.HEADERS, NO_FLAGS, streamId);
            frames.writeBytes(block, first);
            while (block.isReadable()) {
                int next = Math.min(block.readableBytes(), maxFrameSize);
                Http2Flags flags = next == block.readableBytes() ? END_HEADERS : NO_FLAGS;
                Http2CodecUtil.writeFrameHeader(frames, next, Http2FrameTypes.CONTINUATION, flags, streamId);
                frames.writeBytes(block, next);
            }
        } finally {
            block.release();
        }
    }
}
