package io.parry.proxy;

import java.util.concurrent.atomic.AtomicLong;

/**
 * Limits retries to a share of recent requests plus a small floor per second, like Finagle's retry
 * budget, so an upstream in trouble is not sent a multiple of its normal load. Lock-free: each
 * request deposits a fraction of a token, each retry takes a whole one.
 */
final class RetryBudget {
    private static final long TOKEN = 1000;
    private static final long MAX_BALANCE = 100 * TOKEN;
    private static final long SECOND_NANOS = 1_000_000_000L;

    private final long depositPerRequest;
    private final int minPerSecond;
    private final AtomicLong balance = new AtomicLong();
    private final AtomicLong floorWindow = new AtomicLong();

    RetryBudget(RetryPolicy policy) {
        this.depositPerRequest = policy.budgetPercent() * TOKEN / 100;
        this.minPerSecond = policy.minRetriesPerSecond();
    }

    /** A request arrived. */
    void deposit() {
        if (depositPerRequest == 0) {
            return;
        }
        long current;
        do {
            current = balance.get();
            if (current >= MAX_BALANCE) {
                return;
            }
        } while (!balance.compareAndSet(current, Math.min(MAX_BALANCE, current + depositPerRequest)));
    }

    /** Takes one retry from the budget; false when it is spent. */
    boolean tryWithdraw() {
        long current;
        while ((current = balance.get()) >= TOKEN) {
            if (balance.compareAndSet(current, current - TOKEN)) {
                return true;
            }
        }
        return tryFloor();
    }

    /** The floor: up to {@code minPerSecond} retries in each second, whatever the traffic. */
    private boolean tryFloor() {
        if (minPerSecond == 0) {
            return false;
        }
        long second = System.nanoTime() / SECOND_NANOS;
        while (true) {
            long window = floorWindow.get();
            long windowSecond = window >>> 20;
            long used = windowSecond == (second & 0xFFF_FFFF_FFFFL) ? window & 0xFFFFF : 0;
            if (used >= minPerSecond) {
                return false;
            }
            long next = ((second & 0xFFF_FFFF_FFFFL) << 20) | (used + 1);
            if (floorWindow.compareAndSet(window, next)) {
                return true;
            }
        }
    }
}
