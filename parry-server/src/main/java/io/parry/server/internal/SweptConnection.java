package io.parry.server.internal;

/**
 * A connection its event loop's {@link ConnectionSweeper} checks every tick, whatever its framing:
 * a link in the sweeper's intrusive list, so that an idle connection costs two references and no
 * timer. Every method runs on the connection's event loop.
 */
interface SweptConnection {
    /** Acts on each deadline that has passed. */
    void checkDeadlines(long now);

    /** Begins a graceful stop: close as soon as the exchanges in flight are done. */
    void drain();

    /** Closes the connection now. */
    void close();

    SweptConnection previousSwept();

    void previousSwept(SweptConnection previous);

    SweptConnection nextSwept();

    void nextSwept(SweptConnection next);
}
