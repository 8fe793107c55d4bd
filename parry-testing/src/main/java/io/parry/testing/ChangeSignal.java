package io.parry.testing;

import java.time.Duration;
import java.util.concurrent.TimeUnit;
import java.util.function.BooleanSupplier;
import java.util.function.Supplier;

/** Wakes test threads waiting for a condition on a {@link FaultyUpstream}'s state whenever it changes. */
final class ChangeSignal {
    private final Object lock = new Object();

    /** Wakes every waiter to check its condition again. */
    void changed() {
        synchronized (lock) {
            lock.notifyAll();
        }
    }

    /**
     * Waits until the condition holds.
     *
     * @throws AssertionError naming what was expected, if the condition does not hold in time
     */
    void await(BooleanSupplier condition, Duration timeout, Supplier<String> expected) {
        long deadline = System.nanoTime() + timeout.toNanos();
        synchronized (lock) {
            while (!condition.getAsBoolean()) {
                long left = deadline - System.nanoTime();
                if (left <= 0) {
                    throw new AssertionError("expected " + expected.get() + " within " + timeout);
                }
                try {
                    TimeUnit.NANOSECONDS.timedWait(lock, left);
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                    throw new AssertionError("interrupted while waiting for " + expected.get(), e);
                }
            }
        }
    }
}
