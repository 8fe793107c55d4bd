package io.parry.server.accesslog;

/** Where the writer thread puts formatted lines; called on that thread only. */
interface LineSink {
    /** Takes one line, without its line end; {@code line} is reused once this returns. */
    void line(StringBuilder line);

    /** The queue is empty for now: passes on what is held back. */
    void endOfBatch();
}
