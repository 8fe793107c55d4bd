package io.parry.ratelimit.redis;

import java.util.ArrayDeque;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;

/**
 * What one event loop of a limiter waits for from Redis, oldest first, under one timer: the oldest's. All
 * have the limiter's timeout, so their deadlines come in the order they were asked: a request schedules
 * and cancels no task of its own, and the loop's scheduled tasks hold one per limiter instead of one per
 * request waiting. Used only by its loop's thread.
 */
final class Deadlines implements Runnable {
    private final ArrayDeque<Waiting> waiting = new ArrayDeque<>();
    private ScheduledExecutorService timer;

    /** Something waiting for Redis: told once its deadline passed, unless answered before. */
    interface Waiting {
        /** When it times out, a {@link System#nanoTime()} reading. */
        long deadline();

        /** Whether it was answered, so that its deadline no longer matters. */
        boolean answered();

        /** Its deadline passed unanswered. */
        void timedOut();
    }

    /** Watches the deadline of {@code next}, which is no earlier than any watched; {@code loop} runs the timer. */
    void add(Waiting next, ScheduledExecutorService loop) {
        waiting.add(next);
        if (timer == null) {
            timer = loop;
            timer.schedule(this, next.deadline() - System.nanoTime(), TimeUnit.NANOSECONDS);
        }
    }

    /** The timer: times out what is due, then waits for the next deadline, if any. */
    @Override
    public void run() {
        long now = System.nanoTime();
        for (Waiting oldest = waiting.peek(); oldest != null; oldest = waiting.peek()) {
            if (oldest.answered()) {
                waiting.poll();
            } else if (now - oldest.deadline() >= 0) {
                waiting.poll();
                oldest.timedOut();
            } else {
                timer.schedule(this, oldest.deadline() - now, TimeUnit.NANOSECONDS);
                return;
            }
        }
        timer = null;
    }
}
