package io.parry.benchmarks.websocket;

import java.util.Queue;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.LockSupport;

/**
 * Sends the sessions' next messages at a fixed total rate, or at once when the rate is 0. A session
 * whose echo came back queues its send; a thread of the pacer's own, every millisecond, runs as many
 * queued sends as the rate owes since it started. A send owed while no session waited is forgiven
 * rather than sent later in a burst, so the rate never exceeds the one asked for; below saturation it
 * is met.
 */
final class Pacer implements AutoCloseable {
    private final long perSecond;
    private final Queue<Runnable> ready = new ConcurrentLinkedQueue<>();
    private final Thread thread;
    private volatile boolean closed;

    /** A pacer sending {@code perSecond} messages a second in all, or unpaced for 0. */
    Pacer(long perSecond) {
        this.perSecond = perSecond;
        this.thread = perSecond > 0 ? new Thread(this::run, "pacer") : null;
        if (thread != null) {
            thread.setDaemon(true);
            thread.start();
        }
    }

    /** Runs the send now if unpaced, else when the rate allows it. */
    void next(Runnable send) {
        if (thread == null) {
            send.run();
        } else {
            ready.add(send);
        }
    }

    private void run() {
        long start = System.nanoTime();
        long sent = 0;
        while (!closed) {
            LockSupport.parkNanos(TimeUnit.MILLISECONDS.toNanos(1));
            long owed = (System.nanoTime() - start) * perSecond / 1_000_000_000L;
            for (; sent < owed; sent++) {
                Runnable send = ready.poll();
                if (send == null) {
                    sent = owed;
                    break;
                }
                send.run();
            }
        }
    }

    @Override
    public void close() {
        closed = true;
    }
}
