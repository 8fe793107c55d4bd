package io.parry.server.internal;

/**
 * What a connection remembers of the client's closed streams, to tell apart, when a HEADERS frame
 * names a stream that no longer exists, three cases Netty answers alike (RFC 9113, section 5.1): an
 * id the client skipped and may never use (section 5.1.1: a connection error, PROTOCOL_ERROR), a
 * stream the server reset, whose frames may still be in flight (a stream error), and a stream both
 * sides ended (a connection error, STREAM_CLOSED). Memory is bounded: the most recent skips and
 * resets are kept; an older one reads as ended.
 */
final class ClientStreamHistory {
    private static final int KEPT = 32;

    /** Skipped ids as ranges, {@code [first, last]} pairs, the oldest overwritten first. */
    private final int[] skipped = new int[2 * KEPT];

    private final int[] reset = new int[KEPT];
    private int skips;
    private int resets;
    /** -1 before the first stream, so that ids the first one skips (client ids are odd, from 1) count. */
    private int lastOpened = -1;

    /** The client opened this stream. */
    void opened(int id) {
        if (id > lastOpened + 2) {
            int slot = 2 * (skips++ % KEPT);
            skipped[slot] = lastOpened + 2;
            skipped[slot + 1] = id - 2;
        }
        if (id > lastOpened) {
            lastOpened = id;
        }
    }

    /** The server reset this stream. */
    void resetByServer(int id) {
        reset[resets++ % KEPT] = id;
    }

    boolean wasSkipped(int id) {
        int count = Math.min(skips, KEPT);
        for (int i = 0; i < count; i++) {
            if (id >= skipped[2 * i] && id <= skipped[2 * i + 1]) {
                return true;
            }
        }
        return false;
    }

    boolean wasResetByServer(int id) {
        int count = Math.min(resets, KEPT);
        for (int i = 0; i < count; i++) {
            if (reset[i] == id) {
                return true;
            }
        }
        return false;
    }
}
