package io.parry.client;

/**
 * Told when a call's request was written in full to its connection: after any wait for a pooled
 * connection, and after the last byte of its body. From then on, the time to the response is the
 * upstream's.
 *
 * <p>Called on the connection's event loop (for a call made on a Parry server's event loop, that
 * loop), once each time the request is written: a call the client sends again, after its connection
 * closed before any byte of the request could have arrived, is told again. Never called for a request
 * that was not written in full. It must return at once and not throw.
 */
@FunctionalInterface
public interface RequestWritten {
    /** The request's last byte was written at {@code nanoTime}, a {@link System#nanoTime()} value. */
    void written(long nanoTime);
}
