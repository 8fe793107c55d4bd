package io.parry.gateway.internal.upstream;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.Executors;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Closes upstream groups a reload replaced or removed once nothing uses them: when a group has been
 * idle ({@link UpstreamGroup#isIdle()}) for a quiet period, so a request between two attempts or just
 * past the table swap is not cut, or at the latest after the grace period. Checks run on one daemon
 * thread of its own; thread-safe.
 */
public final class Retirement implements AutoCloseable {
    private static final Logger log = LoggerFactory.getLogger(Retirement.class);
    private static final long CHECK_MILLIS = 100;

    private final long quietChecks;
    private final long graceNanos;
    private final Set<UpstreamGroup> retiring = ConcurrentHashMap.newKeySet();
    private final ScheduledExecutorService scheduler = Executors.newSingleThreadScheduledExecutor(task -> {
        Thread thread = new Thread(task, "parry-gateway-retirement");
        thread.setDaemon(true);
        return thread;
    });

    /**
     * A retirement that closes groups once idle for {@code quiet}, or after {@code grace} at the latest.
     *
     * @param quiet how long a group must stay idle before it is closed
     * @param grace the longest a retired group is kept while requests still use it
     */
    public Retirement(Duration quiet, Duration grace) {
        this.quietChecks = Math.max(1, quiet.toMillis() / CHECK_MILLIS);
        this.graceNanos = grace.toNanos();
    }

    /** Closes the group once it is idle; it must no longer be reachable from the live route table. */
    public void retire(UpstreamGroup group) {
        retiring.add(group);
        try {
            scheduler.schedule(new Check(group, System.nanoTime() + graceNanos), CHECK_MILLIS, TimeUnit.MILLISECONDS);
        } catch (RejectedExecutionException closed) {
            finish(group, group.isIdle());
        }
    }

    /** The groups retired and not yet closed. */
    public List<UpstreamGroup> retiring() {
        return new ArrayList<>(retiring);
    }

    /** Closes every retired group now. */
    @Override
    public void close() {
        scheduler.shutdownNow();
        for (UpstreamGroup group : retiring) {
            closeQuietly(group);
        }
        retiring.clear();
    }

    private void finish(UpstreamGroup group, boolean idle) {
        if (!retiring.remove(group)) {
            return;
        }
        if (idle) {
            log.info("Closed upstream group {}, retired by a reload, after its last request", group.name());
        } else {
            log.warn(
                    "Closed upstream group {}, retired by a reload, with requests still in flight after the grace period",
                    group.name());
        }
        closeQuietly(group);
    }

    private static void closeQuietly(UpstreamGroup group) {
        try {
            group.close();
        } catch (RuntimeException e) {
            log.warn("Closing upstream group {} failed", group.name(), e);
        }
    }

    private final class Check implements Runnable {
        private final UpstreamGroup group;
        private final long deadline;
        private long idleChecks;

        Check(UpstreamGroup group, long deadline) {
            this.group = group;
            this.deadline = deadline;
        }

        @Override
        public void run() {
            idleChecks = group.isIdle() ? idleChecks + 1 : 0;
            if (idleChecks >= quietChecks) {
                finish(group, true);
            } else if (System.nanoTime() - deadline >= 0) {
                finish(group, false);
            } else {
                try {
                    scheduler.schedule(this, CHECK_MILLIS, TimeUnit.MILLISECONDS);
                } catch (RejectedExecutionException closed) {
                    // close() has closed the group or is about to.
                }
            }
        }
    }
}
