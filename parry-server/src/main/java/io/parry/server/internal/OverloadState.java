package io.parry.server.internal;

import io.netty.channel.EventLoopGroup;
import io.netty.util.concurrent.EventExecutor;
import io.parry.http.HttpResponse;
import io.parry.http.HttpStatus;
import io.parry.http.Problem;
import io.parry.server.OverloadOptions;
import io.parry.server.OverloadReason;
import io.parry.server.Priority;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.LongAdder;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The state behind an {@code Overload}: the requests in flight, and which priorities the sampled
 * signals shed, for a check per request of two or three volatile reads and no allocation.
 *
 * <p>A {@link LoopProbe} on each watched event loop measures how late its own task runs; whichever
 * probe finds a sample interval passed evaluates every signal ({@link #evaluate}) and publishes, per
 * priority, the reason it is shed or none, with hysteresis. Requests in flight are compared at each
 * request instead, as they change faster than any sample.
 */
public final class OverloadState {
    private static final Logger log = LoggerFactory.getLogger("io.parry.server.overload");
    private static final OverloadReason[] REASONS = OverloadReason.values();
    private static final Priority[] SHED_PRIORITIES = {Priority.CRITICAL, Priority.NORMAL, Priority.SHEDDABLE};
    private static final int BITS = 4;

    private final AtomicInteger inFlight = new AtomicInteger();
    private final LongAdder[] shed = new LongAdder[REASONS.length];
    private final List<LoopProbe> probes = new CopyOnWriteArrayList<>();
    private final AtomicLong lastEvaluation = new AtomicLong(System.nanoTime());
    private final MemorySignals memory = new MemorySignals();
    private volatile Settings settings;
    /** Per priority ordinal, {@link #BITS} bits: 0 admits, else the ordinal plus one of the reason it is shed for. */
    private volatile int shedding;

    public OverloadState(OverloadOptions options) {
        for (int i = 0; i < shed.length; i++) {
            shed[i] = new LongAdder();
        }
        this.settings = new Settings(options);
    }

    public OverloadOptions options() {
        return settings.options;
    }

    /** Takes new thresholds; the sampled verdicts are revised at the next sample. */
    public void update(OverloadOptions options) {
        settings = new Settings(options);
        if (!options.isEnabled()) {
            shedding = 0;
        }
    }

    /** The thresholds as the checks read them: read once per request, then passed to {@link #refusal}. */
    Settings settings() {
        return settings;
    }

    /**
     * Why a request of this priority is shed now, or {@code null} to admit it; counts a refusal. While
     * {@link Settings#counting}, admitted requests must be {@link #enter entered} and {@link #exit exited}.
     */
    OverloadReason refusal(Priority priority, Settings current) {
        int code = (shedding >>> (priority.ordinal() * BITS)) & 0xF;
        OverloadReason reason = code == 0 ? null : REASONS[code - 1];
        if (reason == null) {
            int limit = current.inFlightLimits[priority.ordinal()];
            if (limit > 0 && inFlight.get() >= limit) {
                reason = OverloadReason.IN_FLIGHT;
            }
        }
        if (reason != null) {
            shed[reason.ordinal()].increment();
        }
        return reason;
    }

    /** Why a request of this priority would be shed by a sampled signal now, or {@code null}. */
    public OverloadReason sampledReason(Priority priority) {
        int code = (shedding >>> (priority.ordinal() * BITS)) & 0xF;
        return code == 0 ? null : REASONS[code - 1];
    }

    void enter() {
        inFlight.incrementAndGet();
    }

    void exit() {
        inFlight.decrementAndGet();
    }

    public int inFlight() {
        return inFlight.get();
    }

    public long shed(OverloadReason reason) {
        return shed[reason.ordinal()].sum();
    }

    /** Starts a probe on each of the group's event loops; the returned action stops them. */
    public Runnable watch(EventLoopGroup group) {
        List<LoopProbe> started = new ArrayList<>();
        for (EventExecutor loop : group) {
            LoopProbe probe = new LoopProbe(loop, this);
            probes.add(probe);
            started.add(probe);
            probe.start();
        }
        return () -> {
            started.forEach(LoopProbe::stop);
            probes.removeAll(started);
        };
    }

    long sampleNanos() {
        return settings.sampleNanos;
    }

    /** Called by a probe after each of its samples: evaluates the signals once per sample interval. */
    void sampled() {
        long now = System.nanoTime();
        long last = lastEvaluation.get();
        if (now - last >= settings.sampleNanos && lastEvaluation.compareAndSet(last, now)) {
            evaluate(now);
        }
    }

    private void evaluate(long now) {
        Settings current = settings;
        OverloadOptions options = current.options;
        if (!options.isEnabled()) {
            return;
        }
        double[] ratios = new double[REASONS.length];
        if (!options.eventLoopLag().isZero()) {
            ratios[OverloadReason.EVENT_LOOP_LAG.ordinal()] =
                    (double) maxLag(now) / options.eventLoopLag().toNanos();
        }
        if (options.heap() > 0) {
            ratios[OverloadReason.HEAP.ordinal()] = memory.heapAfterGc() / options.heap();
        }
        if (options.directMemory() > 0) {
            ratios[OverloadReason.DIRECT_MEMORY.ordinal()] = (double) memory.direct() / options.directMemory();
        }
        int before = shedding;
        int after = 0;
        for (Priority priority : SHED_PRIORITIES) {
            int shift = priority.ordinal() * BITS;
            int code = verdict((before >>> shift) & 0xF, ratios, priority.fraction(), options.recovery());
            after |= code << shift;
        }
        if (after != before) {
            shedding = after;
            log.info("Overload: {}", describe(after, ratios));
        }
    }

    /** The reason code for one priority: a signal keeps shedding until it falls below its recovery level. */
    static int verdict(int current, double[] ratios, double fraction, double recovery) {
        if (current != 0 && ratios[current - 1] >= fraction * recovery) {
            return current;
        }
        for (int i = 0; i < ratios.length; i++) {
            if (ratios[i] >= fraction) {
                return i + 1;
            }
        }
        return 0;
    }

    private long maxLag(long now) {
        long max = 0;
        for (LoopProbe probe : probes) {
            max = Math.max(max, probe.lag(now));
        }
        return max;
    }

    private static String describe(int shedding, double[] ratios) {
        StringBuilder text = new StringBuilder();
        for (Priority priority : SHED_PRIORITIES) {
            int code = (shedding >>> (priority.ordinal() * BITS)) & 0xF;
            text.append(priority.name().toLowerCase(Locale.ROOT))
                    .append(code == 0 ? " admitted" : " shed for " + REASONS[code - 1])
                    .append(", ");
        }
        text.append("load ");
        for (int i = 0; i < ratios.length; i++) {
            if (ratios[i] > 0) {
                text.append(REASONS[i]).append('=').append(String.format(Locale.ROOT, "%.2f", ratios[i]));
                text.append(' ');
            }
        }
        return text.toString().trim();
    }

    /**
     * One options value as the checks read it: limits in flight per priority, whether requests are
     * counted (only while {@code maxInFlight} is on), the answer to a shed request per reason (the same
     * for all, so made once), times in nanoseconds.
     */
    static final class Settings {
        final OverloadOptions options;
        final int[] inFlightLimits = new int[Priority.values().length];
        final long sampleNanos;
        final boolean counting;

        @SuppressWarnings("unchecked")
        final CompletableFuture<HttpResponse>[] answers = new CompletableFuture[REASONS.length];

        Settings(OverloadOptions options) {
            this.options = options;
            for (Priority priority : SHED_PRIORITIES) {
                if (options.maxInFlight() > 0) {
                    inFlightLimits[priority.ordinal()] = (int) Math.max(
                            1, Math.min(Integer.MAX_VALUE, Math.ceil(options.maxInFlight() * priority.fraction())));
                }
            }
            // Off, a probe only looks once a second whether it was turned on.
            this.sampleNanos = options.isEnabled() ? options.sampleInterval().toNanos() : 1_000_000_000L;
            this.counting = options.maxInFlight() > 0;
            long nanos = options.retryAfter().toNanos();
            long seconds = Math.max(1, (nanos + 999_999_999L) / 1_000_000_000L);
            for (OverloadReason reason : REASONS) {
                answers[reason.ordinal()] = CompletableFuture.completedFuture(answer(reason, seconds));
            }
        }

        private static HttpResponse answer(OverloadReason reason, long seconds) {
            String detail = "The server is overloaded (" + describe(reason) + "); retry in " + seconds
                    + (seconds == 1 ? " second." : " seconds.");
            // RFC 9110, section 15.6.4: a 503 with Retry-After says the condition is temporary.
            return Problem.of(HttpStatus.SERVICE_UNAVAILABLE)
                    .detail(detail)
                    .toResponse()
                    .withHeader("Retry-After", Long.toString(seconds));
        }

        private static String describe(OverloadReason reason) {
            return switch (reason) {
                case EVENT_LOOP_LAG -> "event loops behind";
                case IN_FLIGHT -> "too many requests in flight";
                case HEAP -> "heap";
                case DIRECT_MEMORY -> "direct memory";
            };
        }
    }
}
