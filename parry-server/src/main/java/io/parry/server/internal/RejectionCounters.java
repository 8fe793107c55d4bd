package io.parry.server.internal;

import io.parry.server.Rejection;
import java.util.concurrent.atomic.LongAdder;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/** Counts rejections by reason without contention, and logs each once at debug level. */
public final class RejectionCounters {
    private static final Logger log = LoggerFactory.getLogger("io.parry.server.rejections");
    private static final Rejection[] REASONS = Rejection.values();

    private final LongAdder[] counts = new LongAdder[REASONS.length];

    public RejectionCounters() {
        for (int i = 0; i < counts.length; i++) {
            counts[i] = new LongAdder();
        }
    }

    /** Counts and logs one rejection. */
    public void record(Rejection reason, Object remote, String what) {
        counts[reason.ordinal()].increment();
        if (log.isDebugEnabled()) {
            log.debug("Rejected {} from {}: {}", reason, remote, what);
        }
    }

    /** The count for this reason. */
    public long count(Rejection reason) {
        return counts[reason.ordinal()].sum();
    }
}
