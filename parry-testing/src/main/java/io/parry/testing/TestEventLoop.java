package io.parry.testing;

import java.util.List;
import java.util.concurrent.ScheduledThreadPoolExecutor;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * The one thread a {@link HandlerTester} runs handlers on, standing in for a connection's event loop.
 * Like the server's, it cannot be shut down by the code it runs; the tester ends it when it closes.
 */
final class TestEventLoop extends ScheduledThreadPoolExecutor {
    private static final AtomicInteger COUNT = new AtomicInteger();

    TestEventLoop() {
        super(1, task -> {
            Thread thread = new Thread(task, "parry-test-loop-" + COUNT.incrementAndGet());
            thread.setDaemon(true);
            return thread;
        });
        setRemoveOnCancelPolicy(true);
    }

    /** Refused: the event loop belongs to the tester. */
    @Override
    public void shutdown() {
        throw new UnsupportedOperationException("the event loop belongs to the HandlerTester; close the tester");
    }

    /** Refused: the event loop belongs to the tester. */
    @Override
    public List<Runnable> shutdownNow() {
        throw new UnsupportedOperationException("the event loop belongs to the HandlerTester; close the tester");
    }

    /** Ends the thread, dropping tasks not yet run. */
    void terminate() {
        super.shutdownNow();
    }
}
