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
        ByteBuf block = Unpooled.buffer();
        new DefaultHttp2HeadersEncoder()
                .encodeHeaders(
                        1,
                        new DefaultHttp2Headers()
                                .method("GET")
                                .scheme("http")
                                .authority("a")
                                .path("/"),
                        block);
        // HEADERS with END_STREAM and END_HEADERS on stream 1 (RFC 9113, section 6.2).
        bytes.writeMedium(block.readableBytes()).writeByte(0x1).writeByte(0x5).writeInt(1);
        bytes.writeBytes(block);
        block.release();
        return bytes;
    }
}
