package io.parry.server.internal;

/**
 * Where an exchange is in its life. It only moves forward, and only along these edges:
 *
 * <pre>
 * RECEIVING -> HANDLING -> RESPONDED -> WRITING -> SENT -> DONE
 * RECEIVING -> RESPONDED                                  a refused head, answered by the server
 * RECEIVING | HANDLING | RESPONDED | WRITING -> ABANDONED  the connection or stream closed first
 * </pre>
 *
 * {@code SENT} means the last message was handed to the framing; {@code DONE} that it left (or
 * failed to) and the listeners were told, as they are on {@code ABANDONED}. The transitions are
 * checked in one place, {@link Exchange}, which is their only writer.
 */
enum ExchangeState {
    /** The head is being read and checked; no handler has seen it. */
    RECEIVING,
    /** The handler (or the server) is working on the answer; the request body may still arrive. */
    HANDLING,
    /** The response is set and waits for its turn on the framing. */
    RESPONDED,
    /** The framing is writing the response: its head may be out, so its status cannot change. */
    WRITING,
    /** The last response message was handed to the framing. */
    SENT,
    /** The response left, or failed to; the listeners were told. */
    DONE,
    /** The connection or stream closed before the response was sent; the listeners were told. */
    ABANDONED;

    /** The states each state may move to, one bit per ordinal, so a check is one mask test per transition. */
    private static final int[] NEXT = new int[values().length];

    static {
        allow(RECEIVING, HANDLING, RESPONDED, ABANDONED);
        allow(HANDLING, RESPONDED, ABANDONED);
        allow(RESPONDED, WRITING, ABANDONED);
        allow(WRITING, SENT, ABANDONED);
        allow(SENT, DONE);
    }

    private static void allow(ExchangeState from, ExchangeState... to) {
        for (ExchangeState next : to) {
            NEXT[from.ordinal()] |= 1 << next.ordinal();
        }
    }

    /** Whether an exchange in this state may move to {@code next}. */
    boolean canMoveTo(ExchangeState next) {
        return (NEXT[ordinal()] & (1 << next.ordinal())) != 0;
    }

    /** Whether the framing has begun writing the response, so its status is the one the client sees. */
    boolean responseStarted() {
        return this == WRITING || this == SENT || this == DONE;
    }
}
