package io.parry.transport.internal;

/** A body that can hand its buffers over without copying them into {@code HttpData}. */
public interface RawBody {
    /** Subscribes for buffers; like {@code Flow.Publisher.subscribe}, at most once per body. */
    void subscribeRaw(ByteBufSubscriber subscriber);
}
