package io.parry.server.internal;

import io.netty.handler.codec.http.DefaultHttpHeadersFactory;
import io.netty.handler.codec.http.HttpHeadersFactory;
import io.parry.http.HttpHeaders;
import java.util.Iterator;
import java.util.Map;

/** Moves header fields between Netty's mutable headers and Parry's immutable ones. */
final class NettyHeaders {
    /** Parry's headers are validated when built, so Netty need not validate them again on the way out. */
    static final HttpHeadersFactory TRUSTED =
            DefaultHttpHeadersFactory.headersFactory().withValidation(false);

    private NettyHeaders() {}

    /** Parry's copy of received fields, validated on the way (Netty's decoder is told not to). */
    static HttpHeaders toParry(io.netty.handler.codec.http.HttpHeaders netty) {
        int size = netty.size();
        if (size == 0) {
            return HttpHeaders.empty();
        }
        String[] namesAndValues = new String[2 * size];
        int i = 0;
        Iterator<Map.Entry<CharSequence, CharSequence>> entries = netty.iteratorCharSequence();
        while (entries.hasNext()) {
            Map.Entry<CharSequence, CharSequence> entry = entries.next();
            namesAndValues[i++] = entry.getKey().toString();
            namesAndValues[i++] = entry.getValue().toString();
        }
        return HttpHeaders.of(namesAndValues);
    }

    static io.netty.handler.codec.http.HttpHeaders toNetty(HttpHeaders from) {
        io.netty.handler.codec.http.HttpHeaders to = TRUSTED.newHeaders();
        from.forEach(to::add);
        return to;
    }
}
