package io.parry.proxy.internal;

import io.parry.proxy.AdaptiveConcurrencyOptions;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.LongAdder;

/**
 * An adaptive concurrency limit computed from latency, after Netflix's {@code Gradient2Limit} (see
 * {@link AdaptiveConcurrencyOptions} for the rule). Netflix's library is not used: it is not served
 * to this build, and its limits take a monitor per sample ({@code synchronized onSample}), which every
 * event loop calling the group would contend on.
 *
 * <p>Thread-safe and lock-free: a place is one CAS on the in-flight count; a sample adds its latency
 * and a count to one packed {@code long}. The thread whose sample finds the window over (and holding
 * at least ten outcomes) wins one CAS on the window's end and recomputes the limit alone; the others
 * go on at once. Times are {@link System#nanoTime()} values, passed in so tests can drive the clock.
 *
 * <p>Every {@code probeInterval} (plus a random part of {@code probeJitter}) the limit drops to {@code
 * minLimit} until ten requests sent once the upstream held no more than that were answered; their
 * average becomes the long-term latency, and the limit is what it was before. This is Envoy's
 * periodic minRTT measurement: a long overload would otherwise teach the long-term average its own
 * queueing, and the limit would let latency drift up with it. Unlike Envoy's, a probe comes only when
 * the limit refused requests in the window closed as it came due; otherwise it is put off a whole
 * interval, so a load the limit admits never sees a 503. A probe starts only in the thread that closed a window, and ends in the
 * one whose sample was its tenth.
 */
public final class GradientLimit {
    private static final int MIN_WINDOW_OUTCOMES = 10;
    private static final double FALL_FACTOR = 0.2;
    private static final int COUNT_BITS = 20;
    private static final long COUNT_MASK = (1L << COUNT_BITS) - 1;
    private static final int PROBE_SAMPLES = 10;
    private static final long NOT_DRAINED = Long.MIN_VALUE;

    private final AdaptiveConcurrencyOptions options;
    private final long windowNanos;
    private final double longFactor;
    private final AtomicInteger inFlight = new AtomicInteger();
    /** The window's latency sum in microseconds above {@link #COUNT_BITS} bits, its sample count below. */
    private final AtomicLong samples = new AtomicLong();

    private final AtomicInteger drops = new AtomicInteger();
    private final AtomicInteger peak = new AtomicInteger();
    private final AtomicLong windowEnd;
    private final LongAdder sheds = new LongAdder();
    /** {@link #sheds} when the last window closed; written only by the thread that closed it. */
    private volatile long shedsBefore;

    private volatile int limit;
    // Written only by the thread that closes a window; volatile so the next one reads them.
    private volatile double estimate;
    private volatile double longRtt;
    private volatile boolean measured;

    private final long probeIntervalNanos;
    private final long probeJitterNanos;
    private final AtomicLong nextProbe;
    private volatile boolean probing;
    /** When the upstream held no more than the probe's limit, or {@link #NOT_DRAINED} before. */
    private volatile long drainedAt;
    /** The probe's samples, packed as {@link #samples}. */
    private final AtomicLong probeSamples = new AtomicLong();
    /** The estimate before the probe, given back after it. */
    private volatile double beforeProbe;

    /** A limit at {@code options.initialLimit()}, whose first window ends a window after {@code nowNanos}. */
    public GradientLimit(AdaptiveConcurrencyOptions options, long nowNanos) {
        this.options = options;
        this.windowNanos = options.window().toNanos();
        this.longFactor = 2.0 / (options.longWindow() + 1);
        this.estimate = options.initialLimit();
        this.limit = options.initialLimit();
        this.windowEnd = new AtomicLong(nowNanos + windowNanos);
        this.probeIntervalNanos = options.probeInterval().toNanos();
        this.probeJitterNanos = (long) (probeIntervalNanos * options.probeJitter());
        this.nextProbe = new AtomicLong(nextProbe(nowNanos));
    }

    /** Takes a place; false, and counted as a shed, when the limit is reached. */
    public boolean tryAcquire() {
        for (; ; ) {
            int current = inFlight.get();
            if (current >= limit) {
                sheds.increment();
                return false;
            }
            if (inFlight.compareAndSet(current, current + 1)) {
                if (current + 1 > peak.get()) {
                    peak.accumulateAndGet(current + 1, Math::max);
                }
                return true;
            }
        }
    }

    /**
     * Takes a place whatever the limit: for a request the upstream already has, whose place was given
     * back while its client was still sending the body.
     */
    public void enter() {
        int now = inFlight.incrementAndGet();
        if (now > peak.get()) {
            peak.accumulateAndGet(now, Math::max);
        }
    }

    /** Gives back a place taken by {@link #tryAcquire()} or {@link #enter()}. */
    public void release() {
        inFlight.decrementAndGet();
    }

    /** Records how long the upstream took to answer one request (sent to response head). */
    public void sample(long rttNanos, long nowNanos) {
        long micros = Math.max(1, rttNanos / 1000);
        if (probing) {
            probeSample(micros, nowNanos - rttNanos, nowNanos);
            return;
        }
        samples.addAndGet((micros << COUNT_BITS) + 1);
        closeWindowIfOver(nowNanos);
    }

    /** Records that the upstream failed a request for being overloaded (a timeout, a 503). */
    public void drop(long nowNanos) {
        drops.incrementAndGet();
        closeWindowIfOver(nowNanos);
    }

    /** Whether the limit is at its minimum now, measuring the upstream's unloaded latency. */
    public boolean probing() {
        return probing;
    }

    /** The limit now. */
    public int limit() {
        return limit;
    }

    /** Places taken now. */
    public int inFlight() {
        return inFlight.get();
    }

    /** How many requests were refused since the limit was made. */
    public long sheds() {
        return sheds.sum();
    }

    private void closeWindowIfOver(long nowNanos) {
        long end = windowEnd.get();
        if (nowNanos - end < 0 || (samples.get() & COUNT_MASK) + drops.get() < MIN_WINDOW_OUTCOMES) {
            return;
        }
        if (windowEnd.compareAndSet(end, nowNanos + windowNanos)) {
            long window = samples.getAndSet(0);
            int dropped = drops.getAndSet(0);
            int busiest = peak.getAndSet(inFlight.get());
            long shed = sheds.sum();
            boolean refused = shed != shedsBefore;
            shedsBefore = shed;
            if (probing) {
                return; // The limit stays at its minimum until the probe ends.
            }
            update(window, dropped, busiest);
            if (probeIntervalNanos > 0 && nowNanos - nextProbe.get() >= 0) {
                probeIfRefusing(refused, nowNanos);
            }
        }
    }

    /**
     * Starts the probe that came due if the limit refused requests in the window just closed, and
     * otherwise puts it off a whole interval. A window without sheds let through all it was offered,
     * so its samples hold no queueing the limit let build up, and each pulls the long-term average a
     * fifth of the way down to them: a probe then would only shed requests the limit had been admitting
     * (goodput.sh's unloaded phase, about 10 in flight: 28 of 1,000 requests shed). A window that only
     * reached the limit is not enough: a burst after the machine paused the gateway reaches it without
     * a shed.
     */
    private void probeIfRefusing(boolean refused, long nowNanos) {
        if (refused) {
            startProbe();
        } else {
            nextProbe.set(nextProbe(nowNanos));
        }
    }

    private void startProbe() {
        beforeProbe = estimate;
        drainedAt = NOT_DRAINED;
        probeSamples.set(0);
        probing = true;
        limit = options.minLimit();
    }

    /**
     * Counts a sample towards the probe once the requests admitted before it have drained, as only
     * those sent since then meet an upstream that is not queueing for this gateway.
     */
    private void probeSample(long micros, long sentNanos, long nowNanos) {
        long drained = drainedAt;
        if (drained == NOT_DRAINED) {
            if (inFlight.get() <= options.minLimit()) {
                drainedAt = nowNanos;
            }
            return;
        }
        if (sentNanos - drained < 0) {
            return;
        }
        long probe = probeSamples.addAndGet((micros << COUNT_BITS) + 1);
        if ((probe & COUNT_MASK) == PROBE_SAMPLES) {
            endProbe(probe, nowNanos);
        }
    }

    private void endProbe(long probe, long nowNanos) {
        longRtt = (double) (probe >>> COUNT_BITS) / PROBE_SAMPLES;
        measured = true;
        estimate = beforeProbe;
        limit = (int) beforeProbe;
        samples.set(0);
        drops.set(0);
        peak.set(inFlight.get());
        shedsBefore = sheds.sum();
        windowEnd.set(nowNanos + windowNanos);
        nextProbe.set(nextProbe(nowNanos));
        probing = false;
    }

    private long nextProbe(long nowNanos) {
        long jitter = probeJitterNanos == 0 ? 0 : ThreadLocalRandom.current().nextLong(probeJitterNanos + 1);
        return nowNanos + probeIntervalNanos + jitter;
    }

    private void update(long window, int dropped, int busiest) {
        double current = estimate;
        double next;
        if (dropped > 0) {
            next = current * options.backoffRatio();
        } else {
            long count = window & COUNT_MASK;
            if (count == 0) {
                return;
            }
            double shortRtt = (double) (window >>> COUNT_BITS) / count;
            double longRtt = longRtt(shortRtt);
            if (busiest < current / 2) {
                return; // Too little traffic to tell whether more would be slower.
            }
            // Never shrink by more than half on one window: an outlier must not empty the limit.
            double gradient = Math.max(0.5, Math.min(1.0, options.rttTolerance() * longRtt / shortRtt));
            next = current * gradient + options.queueSize();
            next = current * (1 - options.smoothing()) + next * options.smoothing();
        }
        next = Math.max(options.minLimit(), Math.min(options.maxLimit(), next));
        estimate = next;
        limit = (int) next;
    }

    /**
     * Adds the window's average to the long-term one and returns it. The long-term average stands for
     * the upstream's latency when it is not overloaded, so it follows a fall quickly (a fifth of the
     * way per window) and a rise slowly ({@code longWindow}), from the first window on: slow first calls
     * (new connections, a cold JIT) or a long overload would otherwise leave it so high that latency
     * could grow several times before the limit reacted, as it can with {@code Gradient2Limit}'s
     * average, whose first ten windows also weigh as much as the rest together.
     */
    private double longRtt(double shortRtt) {
        double value;
        if (!measured) {
            value = shortRtt;
            measured = true;
        } else {
            double factor = shortRtt < longRtt ? FALL_FACTOR : longFactor;
            value = longRtt * (1 - factor) + shortRtt * factor;
        }
        longRtt = value;
        return value;
    }
}
