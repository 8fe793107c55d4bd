package io.parry.client.internal;

import io.netty.handler.codec.http.HttpDecoderConfig;
import io.netty.handler.codec.http.HttpMessage;
import io.netty.handler.codec.http.HttpResponse;
import io.netty.handler.codec.http.HttpResponseDecoder;

/**
 * Netty's response decoder, told by its connection whether the call in flight is a HEAD, and able to
 * say whether bytes are left over once a response ended. Netty's client codec keeps a queue of
 * request methods for the first and hides its buffer from the second; a pooled connection carries
 * one call at a time and must know of a surplus before it is reused. Confined to the connection's
 * event loop.
 */
final class ResponseDecoder extends HttpResponseDecoder {
    private boolean head;

    ResponseDecoder(HttpDecoderConfig config) {
        super(config);
    }

    /** Sets whether the call about to be sent is a HEAD. */
    void expectHead(boolean head) {
        this.head = head;
    }

    /**
     * Whether received bytes wait beyond the response just decoded: the upstream sent more than it
     * framed, so whatever follows cannot be trusted to answer the next call.
     */
    boolean hasSurplus() {
        return actualReadableBytes() > 0;
    }

    /** RFC 9110, section 9.3.2: a final response to HEAD has no content, whatever its fields say. */
    @Override
    protected boolean isContentAlwaysEmpty(HttpMessage message) {
        return (head && ((HttpResponse) message).status().code() >= 200) || super.isContentAlwaysEmpty(message);
    }
}
