package io.parry.server.accesslog;

import io.netty.util.internal.PlatformDependent;
import io.parry.server.RequestLog;
import java.util.Queue;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.LongAdder;
import java.util.concurrent.locks.LockSupport;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * A bounded queue of request logs and the one daemon thread that formats and writes them.
 *
 * <p>The queue is JCTools' multi-producer single-consumer array queue as Netty ships it: event loops
 * enqueue with one CAS and never take a lock or wait (an {@code ArrayBlockingQueue} would lock), and
 * a full queue refuses at once, which is counted as a drop. When the queue is empty the writer sleeps
 * for a few milliseconds and then drains what came in meanwhile. Producers wake it early only when it
 * sleeps and the queue is a quarter full: waking it per line, as a writer faster than its producers
 * would need, costs a futex call on each side per request. A line thus waits at most {@link
 * #SLEEP_NANOS} before it is written. Each time the queue is empty the sink hears of the end of a
 * batch, so that it can write what it collected at once.
 */
final class LineWriter implements Runnable {
    private static final Logger log = LoggerFactory.getLogger(AccessLog.class);
    private static final long SLEEP_NANOS = TimeUnit.MILLISECONDS.toNanos(5);
    /** A line builder grown past this by one huge line is replaced rather than kept. */
    private static final int MAX_KEPT_CAPACITY = 16 * 1024;

    private final Queue<RequestLog> queue;
    private final int wakeAt;
    private final AccessLogFormat format;
    private final LineSink sink;
    private final LongAdder dropped = new LongAdder();
    private final Thread thread;
    private volatile boolean sleeping;
    private volatile boolean closed;
    private boolean warned;

    LineWriter(int capacity, AccessLogFormat format, LineSink sink) {
        this.queue = PlatformDependent.newFixedMpscQueue(capacity);
        this.wakeAt = Math.max(1, capacity / 4);
        this.format = format;
        this.sink = sink;
        this.thread = new Thread(this, "parry-access-log");
        thread.setDaemon(true);
        thread.start();
    }

    /** Enqueues a log for writing, or counts it as dropped when the queue is full or closed; never blocks. */
    void offer(RequestLog requestLog) {
        if (closed || !queue.offer(requestLog)) {
            dropped.increment();
        } else if (sleeping && queue.size() >= wakeAt) {
            LockSupport.unpark(thread);
        }
    }

    long dropped() {
        return dropped.sum();
    }

    /** Writes what is queued, then stops the thread; returns when it has stopped. */
    void close() {
        closed = true;
        LockSupport.unpark(thread);
        boolean interrupted = false;
        while (thread.isAlive() && Thread.currentThread() != thread) {
            try {
                thread.join();
            } catch (InterruptedException e) {
                interrupted = true;
            }
        }
        if (interrupted) {
            Thread.currentThread().interrupt();
        }
    }

    @Override
    public void run() {
        StringBuilder line = new StringBuilder(256);
        while (true) {
            RequestLog next = queue.poll();
            if (next != null) {
                write(next, line);
                if (line.capacity() > MAX_KEPT_CAPACITY) {
                    line = new StringBuilder(256);
                }
                continue;
            }
            endOfBatch();
            if (closed) {
                if (queue.isEmpty()) {
                    return;
                }
            } else {
                sleeping = true;
                if (!closed) {
                    LockSupport.parkNanos(this, SLEEP_NANOS);
                }
                sleeping = false;
                Thread.interrupted(); // Nobody should interrupt this thread; if someone did, do not spin.
            }
        }
    }

    private void write(RequestLog requestLog, StringBuilder line) {
        line.setLength(0);
        try {
            format.format(requestLog, line);
            sink.line(line);
        } catch (RuntimeException e) {
            failed(e);
        }
    }

    private void endOfBatch() {
        try {
            sink.endOfBatch();
        } catch (RuntimeException e) {
            failed(e);
        }
    }

    private void failed(RuntimeException e) {
        if (!warned) {
            warned = true;
            log.warn("Cannot write an access log line; later failures are dropped silently", e);
        }
    }
}
