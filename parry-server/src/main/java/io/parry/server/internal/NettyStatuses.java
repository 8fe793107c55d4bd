package io.parry.server.internal;

import io.netty.handler.codec.http.HttpResponseStatus;
import io.parry.http.HttpStatus;
import java.util.concurrent.atomic.AtomicReferenceArray;

/**
 * Netty's status for each Parry status, made once per code: a code always has the same reason phrase
 * in Parry, and some of Parry's phrases (RFC 9110's) differ from Netty's older ones.
 */
final class NettyStatuses {
    private static final AtomicReferenceArray<HttpResponseStatus> BY_CODE = new AtomicReferenceArray<>(1000);

    private NettyStatuses() {}

    static HttpResponseStatus of(HttpStatus status) {
        HttpResponseStatus netty = BY_CODE.get(status.code());
        if (netty == null) {
            netty = HttpResponseStatus.valueOf(status.code(), status.reasonPhrase());
            BY_CODE.set(status.code(), netty);
        }
        return netty;
    }
}
