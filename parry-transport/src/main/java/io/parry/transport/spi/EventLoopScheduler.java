package io.parry.transport.spi;

import io.netty.util.concurrent.EventExecutor;
import java.util.List;
import java.util.concurrent.AbstractExecutorService;
import java.util.concurrent.Callable;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.ScheduledFuture;
import java.util.concurrent.TimeUnit;

/**
 * An event loop (or another scheduler's view of one) seen as a {@link ScheduledExecutorService} that application code may schedule on
 * but not shut down: the server owns its event loops' lifecycle. Tasks pass through a wrapper that
 * carries the request's context to them.
 */
public final class EventLoopScheduler extends AbstractExecutorService implements ScheduledExecutorService {
    private final ScheduledExecutorService loop;
    private final TaskWrapper wrapper;

    public EventLoopScheduler(ScheduledExecutorService loop, TaskWrapper wrapper) {
        this.loop = loop;
        this.wrapper = wrapper;
    }

    /** Whether the calling thread is the event loop's own. */
    public boolean inEventLoop() {
        return loop instanceof EventLoopScheduler inner
                ? inner.inEventLoop()
                : loop instanceof EventExecutor executor && executor.inEventLoop();
    }

    @Override
    public void execute(Runnable command) {
        loop.execute(wrapper.wrap(command));
    }

    @Override
    public ScheduledFuture<?> schedule(Runnable command, long delay, TimeUnit unit) {
        return loop.schedule(wrapper.wrap(command), delay, unit);
    }

    @Override
    public <V> ScheduledFuture<V> schedule(Callable<V> callable, long delay, TimeUnit unit) {
        return loop.schedule(wrapper.wrap(callable), delay, unit);
    }

    @Override
    public ScheduledFuture<?> scheduleAtFixedRate(Runnable command, long initialDelay, long period, TimeUnit unit) {
        return loop.scheduleAtFixedRate(wrapper.wrap(command), initialDelay, period, unit);
    }

    @Override
    public ScheduledFuture<?> scheduleWithFixedDelay(Runnable command, long initialDelay, long delay, TimeUnit unit) {
        return loop.scheduleWithFixedDelay(wrapper.wrap(command), initialDelay, delay, unit);
    }

    @Override
    public void shutdown() {
        throw new UnsupportedOperationException("the server owns its event loops; stop the server instead");
    }

    @Override
    public List<Runnable> shutdownNow() {
        throw new UnsupportedOperationException("the server owns its event loops; stop the server instead");
    }

    @Override
    public boolean isShutdown() {
        return loop.isShutdown();
    }

    @Override
    public boolean isTerminated() {
        return loop.isTerminated();
    }

    @Override
    public boolean awaitTermination(long timeout, TimeUnit unit) throws InterruptedException {
        return loop.awaitTermination(timeout, unit);
    }
}
