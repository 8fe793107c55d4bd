package io.parry.server.internal;

import io.netty.util.concurrent.EventExecutor;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.TimeUnit;

/**
 * Measures how late one event loop runs its tasks: a task that schedules itself one sample interval
 * ahead and notes how much later than due it ran. No thread of its own spins; a loop blocked now
 * shows as lag from the moment its task fell due, seen by the other loops' probes.
 */
final class LoopProbe implements Runnable {
    private final EventExecutor loop;
    private final OverloadState state;
    private volatile long dueNanos;
    private volatile long lastLagNanos;
    private volatile boolean stopped;

    LoopProbe(EventExecutor loop, OverloadState state) {
        this.loop = loop;
        this.state = state;
    }

    void start() {
        schedule();
    }

    void stop() {
        stopped = true;
    }

    /** The lag now: the last one measured, or how overdue the pending task is, whichever is greater. */
    long lag(long now) {
        return stopped ? 0 : Math.max(lastLagNanos, now - dueNanos);
    }

    @Override
    public void run() {
        if (stopped) {
            return;
        }
        lastLagNanos = Math.max(0, System.nanoTime() - dueNanos);
        state.sampled();
        schedule();
    }

    private void schedule() {
        long delay = state.sampleNanos();
        dueNanos = System.nanoTime() + delay;
        try {
            loop.schedule(this, delay, TimeUnit.NANOSECONDS);
        } catch (RejectedExecutionException stopping) {
            stopped = true;
        }
    }
}
