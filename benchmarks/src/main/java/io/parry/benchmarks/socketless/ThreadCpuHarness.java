package io.parry.benchmarks.socketless;

import io.netty.util.concurrent.FastThreadLocalThread;
import io.parry.benchmarks.Env;
import java.lang.management.ManagementFactory;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;

/**
 * CPU time and bytes allocated per request by Parry's and the raw-Netty baseline's server connections, with no
 * socket: each {@link SocketlessConnection} is fed the same requests on this one thread, and the thread's own CPU
 * time ({@code ThreadMXBean.getCurrentThreadCpuTime}, which counts only the time this thread ran) and allocated
 * bytes are read around each run. A loaded machine delays the thread but does not add to its CPU time, so the
 * figures hold to a few percent where wall-clock req/s swings by tens of percent; they leave out the kernel's
 * socket work, the garbage collector's threads and wake-ups, so they complement {@code load.sh} and {@code h2.sh}
 * rather than replace them.
 *
 * <p>Per scenario: both servers warm up alternately ({@code WARMUP_REQUESTS} each, in ten slices), then {@code
 * ROUNDS} rounds of {@code REQUESTS} requests each, the servers alternating and taking turns to go first. Printed:
 * the median and range of nanoseconds of CPU per request, the median bytes per request, and Parry/baseline of the
 * medians. Settings from the environment: {@code SCENARIOS} (space-separated, default all of {@link
 * SocketlessConnection#SCENARIOS}), {@code ROUNDS} (7), {@code REQUESTS} (200,000), {@code WARMUP_REQUESTS}
 * (500,000).
 *
 * <pre>
 * java -cp benchmarks/target/parry-benchmarks.jar io.parry.benchmarks.socketless.ThreadCpuHarness
 * </pre>
 */
public final class ThreadCpuHarness {
    private static final com.sun.management.ThreadMXBean THREADS =
            (com.sun.management.ThreadMXBean) ManagementFactory.getThreadMXBean();

    private ThreadCpuHarness() {}

    public static void main(String[] args) throws InterruptedException {
        // The servers' event loops are FastThreadLocalThreads: Netty's thread-locals, its recyclers and its
        // allocator's magazines take their fast paths there and their fallbacks on any other thread, which
        // would charge each server for code its event loop never runs.
        Thread measuring = new FastThreadLocalThread(ThreadCpuHarness::measureAll, "cpu-harness");
        measuring.start();
        measuring.join();
    }

    private static void measureAll() {
        String scenarios = System.getenv().getOrDefault("SCENARIOS", String.join(" ", SocketlessConnection.SCENARIOS));
        int rounds = Env.intValue("ROUNDS", 7);
        int requests = Env.intValue("REQUESTS", 200_000);
        int warmup = Env.intValue("WARMUP_REQUESTS", 500_000);
        if (!THREADS.isCurrentThreadCpuTimeSupported()) {
            throw new IllegalStateException("this JVM cannot measure a thread's CPU time");
        }
        THREADS.setThreadCpuTimeEnabled(true);
        System.out.printf(
                "thread CPU per request, socket-less: %d rounds x %d requests, %d warm-up requests (%s)%n",
                rounds, requests, warmup, Runtime.version());
        System.out.printf("%-14s %-6s %12s %20s %12s%n", "scenario", "server", "ns/request", "range", "bytes/req");
        for (String scenario : scenarios.trim().split("\\s+")) {
            measure(scenario, rounds, requests, warmup);
        }
    }

    private static void measure(String scenario, int rounds, int requests, int warmup) {
        List<String> servers = SocketlessConnection.SERVERS;
        List<SocketlessConnection> connections = new ArrayList<>();
        try {
            for (String server : servers) {
                connections.add(SocketlessConnection.open(server, scenario));
            }
            for (int slice = 0; slice < 10; slice++) {
                for (SocketlessConnection connection : connections) {
                    run(connection, warmup / 10);
                }
            }
            double[][] nanos = new double[servers.size()][rounds];
            double[][] bytes = new double[servers.size()][rounds];
            for (int round = 0; round < rounds; round++) {
                for (int turn = 0; turn < servers.size(); turn++) {
                    int server = (turn + round) % servers.size();
                    long cpuBefore = THREADS.getCurrentThreadCpuTime();
                    long bytesBefore = THREADS.getCurrentThreadAllocatedBytes();
                    run(connections.get(server), requests);
                    nanos[server][round] = (double) (THREADS.getCurrentThreadCpuTime() - cpuBefore) / requests;
                    bytes[server][round] = (double) (THREADS.getCurrentThreadAllocatedBytes() - bytesBefore) / requests;
                }
            }
            for (int server = 0; server < servers.size(); server++) {
                double[] sorted = nanos[server].clone();
                Arrays.sort(sorted);
                System.out.printf(
                        Locale.ROOT,
                        "%-14s %-6s %12.0f %20s %12.0f%n",
                        scenario,
                        servers.get(server),
                        median(nanos[server]),
                        String.format(Locale.ROOT, "%.0f-%.0f", sorted[0], sorted[sorted.length - 1]),
                        median(bytes[server]));
            }
            System.out.printf(
                    Locale.ROOT,
                    "%-14s parry/netty CPU per request %.2f, bytes per request %.2f%n",
                    scenario,
                    median(nanos[0]) / median(nanos[1]),
                    median(bytes[0]) / median(bytes[1]));
        } finally {
            connections.forEach(SocketlessConnection::close);
        }
    }

    private static void run(SocketlessConnection connection, int requests) {
        for (int i = 0; i < requests; i += connection.requestsPerRead()) {
            connection.request();
        }
    }

    private static double median(double[] values) {
        double[] sorted = values.clone();
        Arrays.sort(sorted);
        int middle = sorted.length / 2;
        return sorted.length % 2 == 1 ? sorted[middle] : (sorted[middle - 1] + sorted[middle]) / 2;
    }
}
