package io.parry.client;

/**
 * A snapshot of the connection pools of one endpoint, summed over the event loops.
 *
 * @param active connections carrying a call
 * @param idle open connections waiting in the pool
 * @param pending calls waiting for a connection
 */
public record PoolStats(int active, int idle, int pending) {
    /** Whether nothing is open or waiting. */
    public boolean isEmpty() {
        return active == 0 && idle == 0 && pending == 0;
    }
}
