package io.parry.server;

/** Why an {@link Overload} shed a request. */
public enum OverloadReason {
    /** Tasks on an event loop ran later than {@link OverloadOptions#eventLoopLag()}. */
    EVENT_LOOP_LAG,
    /** {@link OverloadOptions#maxInFlight()} requests were being handled. */
    IN_FLIGHT,
    /** The heap in use after garbage collection passed {@link OverloadOptions#heap()}. */
    HEAP,
    /** Netty's direct memory passed {@link OverloadOptions#directMemory()}. */
    DIRECT_MEMORY
}
