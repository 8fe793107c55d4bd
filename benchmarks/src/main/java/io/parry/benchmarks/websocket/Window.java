package io.parry.benchmarks.websocket;

import java.util.List;
import java.util.Locale;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.LongAdder;

/** What one stretch of a {@link WebSocketLoad} run counted: round trips, and CPU ticks per process group. */
record Window(long roundTrips, double seconds, long[] ticks, long machineTicks) {
    /** Sleeps {@code seconds} and counts what the round trips and the groups' CPU time grew by meanwhile. */
    static Window measure(LongAdder roundTrips, List<ProcessCpu> groups, long seconds) throws InterruptedException {
        long[] before = groupTicks(groups);
        long machineBefore = ProcessCpu.machineBusyTicks();
        long countBefore = roundTrips.sum();
        long start = System.nanoTime();
        TimeUnit.SECONDS.sleep(seconds);
        long count = roundTrips.sum() - countBefore;
        double elapsed = (System.nanoTime() - start) / 1e9;
        long[] after = groupTicks(groups);
        for (int i = 0; i < after.length; i++) {
            after[i] -= before[i];
        }
        return new Window(count, elapsed, after, ProcessCpu.machineBusyTicks() - machineBefore);
    }

    private static long[] groupTicks(List<ProcessCpu> groups) {
        long[] ticks = new long[groups.size()];
        for (int i = 0; i < ticks.length; i++) {
            ticks[i] = groups.get(i).ticks();
        }
        return ticks;
    }

    double perSecond() {
        return roundTrips / seconds;
    }

    /** The CPU time of the group at {@code index} per round trip, in microseconds. */
    double microsPerRoundTrip(int index) {
        return ticks[index] * 1e6 / ProcessCpu.TICKS_PER_SECOND / Math.max(1, roundTrips);
    }

    /**
     * One line: each group's CPU microseconds per round trip, the machine's busy share of its cores, and
     * the client's share of that busy time (the last group is the client).
     */
    String cpuLine(List<ProcessCpu> groups) {
        StringBuilder line = new StringBuilder("cpu us per round trip:");
        for (int i = 0; i < groups.size(); i++) {
            line.append(String.format(Locale.ROOT, " %s %.1f", groups.get(i).name(), microsPerRoundTrip(i)));
        }
        double capacity =
                seconds * ProcessCpu.TICKS_PER_SECOND * Runtime.getRuntime().availableProcessors();
        return line.append(String.format(
                        Locale.ROOT,
                        "; machine busy %.0f%% of %d cores, client %.0f%% of that",
                        100 * machineTicks / capacity,
                        Runtime.getRuntime().availableProcessors(),
                        100.0 * ticks[ticks.length - 1] / Math.max(1, machineTicks)))
                .toString();
    }
}
