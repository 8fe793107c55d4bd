package io.parry.server.internal;

import io.netty.handler.codec.http.DefaultHttpHeadersFactory;
import io.netty.handler.codec.http.HttpHeadersFactory;
import io.parry.http.HttpHeaders;

/** Moves Parry's immutable header fields into Netty's mutable ones for the encoder. */
final class NettyHeaders {
    /** Parry's headers are validated when built, so Netty need not validate them again on the way out. */
    static final HttpHeadersFactory TRUSTED =
            DefaultHttpHeadersFactory.headersFactory().withValidation(false);

    private NettyHeaders() {}

    static io.netty.handler.codec.http.HttpHeaders toNetty(HttpHeaders from) {
        io.netty.handler.codec.http.HttpHeaders to = TRUSTED.newHeaders();
        from.forEach(to::add);
        return to;
    }
}
