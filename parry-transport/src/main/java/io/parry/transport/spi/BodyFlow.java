package io.parry.transport.spi;

/** What a received body asks of its connection; called on the connection's event loop. */
public interface BodyFlow {
    /** Stop reading from the socket: the body's consumer is behind. */
    void pause();

    /** Read from the socket again. */
    void resume();

    /** The consumer asked for bytes for the first time (so a pending {@code 100 Continue} may be sent). */
    void demanded();
}
