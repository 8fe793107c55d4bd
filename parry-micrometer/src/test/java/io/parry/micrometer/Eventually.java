package io.parry.micrometer;

import java.time.Duration;
import java.util.function.BooleanSupplier;

/** Waits for state another thread changes without telling anyone (a gauge's source), up to 5 s. */
final class Eventually {
    private Eventually() {}

    static void until(String what, BooleanSupplier condition) {
        long deadline = System.nanoTime() + Duration.ofSeconds(5).toNanos();
        while (!condition.getAsBoolean()) {
            if (System.nanoTime() > deadline) {
                throw new AssertionError(what + ": not within 5 s");
            }
            try {
                Thread.sleep(2);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                throw new AssertionError(e);
            }
        }
    }
}
