package io.parry.server.internal;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.Unpooled;
import io.netty.handler.codec.http2.DefaultHttp2Headers;
import io.netty.handler.codec.http2.DefaultHttp2HeadersEncoder;
import io.netty.handler.codec.http2.Http2CodecUtil;
import io.netty.handler.codec.http2.Http2Exception;

/** A client's first bytes on an h2c connection, for channel tests of the HTTP/2 framing. */
final class Http2RequestBytes {
    private Http2RequestBytes() {}

    /** The connection preface, an empty SETTINGS frame, and a GET of {@code /} on stream 1 with no body. */
    static ByteBuf get() throws Http2Exception {
        ByteBuf bytes = Unpooled.buffer();
        bytes.writeBytes(Http2CodecUtil.connectionPrefaceBuf());
        bytes.writeMedium(0).writeByte(0x4).writeByte(0).writeInt(0); // An empty SETTINGS frame.
        ByteBuf request = get(1);
        bytes.writeBytes(request);
        request.release();
        return bytes;
    }

    /**
     * The connection preface and a SETTINGS frame giving the server streams an initial window of {@code
     * initialWindow} bytes, before a GET of {@code /} on stream 1 with no body.
     */
    static ByteBuf getWithInitialWindow(long initialWindow) throws Http2Exception {
        ByteBuf bytes = Unpooled.buffer();
        bytes.writeBytes(Http2CodecUtil.connectionPrefaceBuf());
        bytes.writeBytes(initialWindow(initialWindow));
        ByteBuf request = get(1);
        bytes.writeBytes(request);
        request.release();
        return bytes;
    }

    /** A SETTINGS frame with SETTINGS_INITIAL_WINDOW_SIZE (RFC 9113, section 6.5.2). */
    static ByteBuf initialWindow(long bytes) {
        return Unpooled.buffer()
                .writeMedium(6)
                .writeByte(0x4)
                .writeByte(0)
                .writeInt(0)
                .writeShort(0x4)
                .writeInt((int) bytes);
    }

    /** A WINDOW_UPDATE frame (RFC 9113, section 6.9), on stream 0 for the connection's window. */
    static ByteBuf windowUpdate(int streamId, int increment) {
        return Unpooled.buffer()
                .writeMedium(4)
                .writeByte(0x8)
                .writeByte(0)
                .writeInt(streamId)
                .writeInt(increment);
    }

    /** A GET of {@code /} with no body on a later stream of a connection {@link #get()} opened. */
    static ByteBuf get(int streamId) throws Http2Exception {
        ByteBuf bytes = Unpooled.buffer();
        ByteBuf block = Unpooled.buffer();
        new DefaultHttp2HeadersEncoder()
                .encodeHeaders(
                        streamId,
                        new DefaultHttp2Headers()
                                .method("GET")
                                .scheme("http")
                                .authority("a")
                                .path("/"),
                        block);
        // HEADERS with END_STREAM and END_HEADERS (RFC 9113, section 6.2).
        bytes.writeMedium(block.readableBytes()).writeByte(0x1).writeByte(0x5).writeInt(streamId);
        bytes.writeBytes(block);
        block.release();
        return bytes;
    }
}
