package io.parry.transport.spi;

import io.netty.util.concurrent.FastThreadLocal;

/**
 * The {@link CallerContext} of the running thread, or none: set by the server wherever it makes a
 * request's context current, read by the client when a call is sent.
 */
public final class CurrentCaller {
    /** An indexed slot on event-loop threads, so reading it costs a client call next to nothing. */
    private static final FastThreadLocal<CallerContext> CURRENT = new FastThreadLocal<>();

    private CurrentCaller() {}

    /** The caller of the running thread, or {@code null}. */
    public static CallerContext get() {
        return CURRENT.get();
    }

    /** Makes {@code caller} the running thread's caller; {@code null} for none. */
    public static void set(CallerContext caller) {
        CURRENT.set(caller);
    }
}
