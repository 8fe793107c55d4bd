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
