package io.parry.proxy.internal;

import java.util.ArrayDeque;
import java.util.Arrays;
import java.util.PriorityQueue;

/**
 * An upstream that serves {@code slots} requests at once in a fixed time each, the excess waiting in
 * line, offered requests at a constant rate (an open-loop load) through a {@link GradientLimit}: what
 * the limit admits is sent, sampled when answered, and given back; the rest is shed. Time moves in
 * steps of a millisecond on a clock of its own, so a run is the same every time.
 */
final class OverloadModel {
    private static final long STEP = 1_000_000;

    private final GradientLimit limit;
    private final long serviceNanos;
    /** When each slot is next free. */
    private final PriorityQueue<Long> slots = new PriorityQueue<>();
    /** Admitted requests as {sent, answered}, in the order they are answered (first in, first out). */
    private final ArrayDeque<long[]> answers = new ArrayDeque<>();

    private long now;
    private double due;

    OverloadModel(GradientLimit limit, int slots, long serviceNanos) {
        this.limit = limit;
        this.serviceNanos = serviceNanos;
        for (int i = 0; i < slots; i++) {
            this.slots.add(0L);
        }
    }

    /** Offers {@code perSecond} requests a second for {@code nanos}; what became of them. */
    Period offer(double perSecond, long nanos) {
        long end = now + nanos;
        long[] latencies = new long[(int) (perSecond * nanos / 1e9) + 1];
        int served = 0;
        int shed = 0;
        while (now < end) {
            now += STEP;
            while (!answers.isEmpty() && answers.peekFirst()[1] <= now) {
                long[] answer = answers.pollFirst();
                limit.sample(answer[1] - answer[0], answer[1]);
                limit.release();
                if (served < latencies.length) {
                    latencies[served] = answer[1] - answer[0];
                }
                served++;
            }
            due += perSecond * STEP / 1e9;
            for (; due >= 1; due--) {
                if (!limit.tryAcquire()) {
                    shed++;
                    continue;
                }
                long start = Math.max(now, slots.poll());
                slots.add(start + serviceNanos);
                answers.addLast(new long[] {now, start + serviceNanos});
            }
        }
        return new Period(served, shed, p99(Arrays.copyOf(latencies, Math.min(served, latencies.length))), nanos);
    }

    private static long p99(long[] latencies) {
        if (latencies.length == 0) {
            return 0;
        }
        Arrays.sort(latencies);
        return latencies[(int) Math.ceil(latencies.length * 0.99) - 1];
    }

    /** What an offer came to: requests answered and shed, the answered ones' p99 latency. */
    record Period(int served, int shed, long p99Nanos, long nanos) {
        /** Requests answered per second. */
        double servedPerSecond() {
            return served * 1e9 / nanos;
        }
    }
}
