package io.parry.server.internal;

import io.netty.buffer.Unpooled;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelPipeline;
import io.netty.handler.codec.http.DefaultFullHttpRequest;
import io.netty.handler.codec.http.DefaultFullHttpResponse;
import io.netty.handler.codec.http.DefaultHttpHeaders;
import io.netty.handler.codec.http.EmptyHttpHeaders;
import io.netty.handler.codec.http.FullHttpRequest;
import io.netty.handler.codec.http.HttpHeaderNames;
import io.netty.handler.codec.http.HttpHeaderValues;
import io.netty.handler.codec.http.HttpHeaders;
import io.netty.handler.codec.http.HttpRequest;
import io.netty.handler.codec.http.HttpResponseStatus;
import io.netty.handler.codec.http.HttpVersion;
import io.netty.handler.codec.http2.DefaultHttp2Headers;
import io.netty.handler.codec.http2.Http2Headers;
import io.netty.handler.codec.http2.Http2ServerUpgradeCodec;
import io.netty.util.AsciiString;
import java.util.Map;
import java.util.Set;

/**
 * {@code Upgrade: h2c} (RFC 7540, section 3.2), only when {@code Http2Options.upgrade()} opts in, as
 * RFC 9113, section 3.1 deprecates it and it lets a request through a proxy that does not know it
 * change protocols. Only a request without a body, alone on its connection, is upgraded; any other
 * stays HTTP/1.1. The request becomes stream 1 of the HTTP/2 connection and is answered there.
 */
final class H2cUpgrade {
    private static final CharSequence H2C = "h2c";
    private static final Set<AsciiString> HOP_BY_HOP = Set.of(
            HttpHeaderNames.HOST,
            HttpHeaderNames.CONNECTION,
            HttpHeaderNames.UPGRADE,
            AsciiString.cached("http2-settings"),
            HttpHeaderNames.KEEP_ALIVE,
            HttpHeaderNames.PROXY_CONNECTION,
            HttpHeaderNames.TRANSFER_ENCODING,
            HttpHeaderNames.TE);

    private H2cUpgrade() {}

    /** Whether the head asks for h2c, with the fields RFC 7540 requires. */
    static boolean requested(HttpRequest head) {
        HttpHeaders headers = head.headers();
        return head.protocolVersion().equals(HttpVersion.HTTP_1_1)
                && headers.containsValue(HttpHeaderNames.UPGRADE, H2C, true)
                && headers.containsValue(HttpHeaderNames.CONNECTION, HttpHeaderValues.UPGRADE, true)
                && headers.containsValue(HttpHeaderNames.CONNECTION, "HTTP2-Settings", true);
    }

    /**
     * Answers 101 and switches the connection to HTTP/2 with the request as stream 1; false, and
     * nothing done, when its {@code HTTP2-Settings} cannot be read.
     */
    static boolean upgrade(ChannelHandlerContext ctx, HttpRequest head, ServerRuntime runtime) {
        FullHttpRequest request = new DefaultFullHttpRequest(
                head.protocolVersion(),
                head.method(),
                head.uri(),
                Unpooled.EMPTY_BUFFER,
                head.headers(),
                EmptyHttpHeaders.INSTANCE);
        Http2ServerConnection http2 = Http2ServerConnection.create(runtime, null);
        Http2ServerUpgradeCodec codec = new Http2ServerUpgradeCodec("http2", http2);
        HttpHeaders switching = new DefaultHttpHeaders()
                .add(HttpHeaderNames.CONNECTION, HttpHeaderValues.UPGRADE)
                .add(HttpHeaderNames.UPGRADE, H2C);
        if (!codec.prepareUpgradeResponse(ctx, request, switching)) {
            return false;
        }
        ctx.writeAndFlush(new DefaultFullHttpResponse(
                HttpVersion.HTTP_1_1,
                HttpResponseStatus.SWITCHING_PROTOCOLS,
                Unpooled.EMPTY_BUFFER,
                switching,
                EmptyHttpHeaders.INSTANCE));
        ChannelPipeline pipeline = ctx.pipeline();
        pipeline.remove(ServerInitializer.ENCODER);
        codec.upgradeTo(ctx, request);
        pipeline.remove(ServerInitializer.DECODER);
        pipeline.remove(ctx.handler());
        http2.upgradedRequest(streamHeaders(head));
        return true;
    }

    /** The request's header block as stream 1 carries it: pseudo-header fields, names lower-cased, no hop-by-hop fields. */
    private static Http2Headers streamHeaders(HttpRequest head) {
        Http2Headers headers = new DefaultHttp2Headers(false)
                .method(head.method().asciiName())
                .path(head.uri())
                .scheme("http");
        String host = head.headers().get(HttpHeaderNames.HOST);
        if (host != null) {
            headers.authority(host);
        }
        for (Map.Entry<String, String> field : head.headers()) {
            AsciiString name = AsciiString.of(field.getKey()).toLowerCase();
            if (!HOP_BY_HOP.contains(name)) {
                headers.add(name, field.getValue());
            }
        }
        return headers;
    }
}
