package io.parry.benchmarks.websocket;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

/**
 * The CPU time a named group of processes used, from Linux's {@code /proc/PID/stat} (user plus system
 * time of all their threads, in clock ticks of 10 ms), and the machine's busy time from {@code
 * /proc/stat}: what {@link WebSocketLoad} divides by the round trips it counted. A group is written
 * {@code name=PID,PID}, groups separated by spaces (NGINX's master and each worker in one group).
 */
record ProcessCpu(String name, List<Long> pids) {
    /** Clock ticks per second on Linux ({@code getconf CLK_TCK}); the JDK cannot ask for it. */
    static final long TICKS_PER_SECOND = 100;

    /** The groups {@code spec} names, such as {@code "proxy=4711 upstream=4712"}; none if it is blank. */
    static List<ProcessCpu> parse(String spec) {
        List<ProcessCpu> groups = new ArrayList<>();
        for (String group : spec.strip().split("\\s+")) {
            if (group.isEmpty()) {
                continue;
            }
            int equals = group.indexOf('=');
            if (equals <= 0) {
                throw new IllegalArgumentException("CPU_PIDS: " + group + " (expected: name=PID[,PID...])");
            }
            List<Long> pids = new ArrayList<>();
            for (String pid : group.substring(equals + 1).split(",")) {
                pids.add(Long.parseLong(pid));
            }
            groups.add(new ProcessCpu(group.substring(0, equals), pids));
        }
        return groups;
    }

    /** User plus system ticks of the group's processes so far. */
    long ticks() {
        long sum = 0;
        for (long pid : pids) {
            // The command name in parentheses may hold spaces: count fields after its closing parenthesis.
            String stat = read(Path.of("/proc", Long.toString(pid), "stat"));
            String[] fields = stat.substring(stat.lastIndexOf(')') + 2).split(" ");
            sum += Long.parseLong(fields[11]) + Long.parseLong(fields[12]);
        }
        return sum;
    }

    /** The ticks all cores spent outside idle and I/O wait so far (guest time is inside user time already). */
    static long machineBusyTicks() {
        String[] fields =
                read(Path.of("/proc/stat")).lines().findFirst().orElseThrow().split("\\s+");
        long busy = 0;
        for (int i = 1; i <= 8; i++) {
            if (i != 4 && i != 5) {
                busy += Long.parseLong(fields[i]);
            }
        }
        return busy;
    }

    private static String read(Path path) {
        try {
            return Files.readString(path);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
