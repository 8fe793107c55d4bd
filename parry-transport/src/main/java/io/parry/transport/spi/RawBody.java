package io.parry.transport.spi;

import io.netty.buffer.ByteBuf;

/** A body that can hand its buffers over without copying them into {@code HttpData}. */
public interface RawBody {
    /** Subscribes for buffers; like {@code Flow.Publisher.subscribe}, at most once per body. */
    void subscribeRaw(ByteBufSubscriber subscriber);

    /**
     * The whole body as one buffer, now owned by the caller, when all of it has already arrived, without
     * trailer fields, and nobody has subscribed; otherwise {@code null}, and the body is to be read with
     * {@link #subscribeRaw}. A body taken counts as subscribed and read to its end. Lets a writer send a
     * small body with its head in one message instead of streaming it chunk by chunk.
     */
    default ByteBuf takeReceived() {
        return null;
    }
}
