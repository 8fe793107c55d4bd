package io.parry.server.routing.internal;

import io.parry.server.RequestContext;
import io.parry.server.internal.CurrentContext;
import java.util.List;
import java.util.concurrent.AbstractExecutorService;
import java.util.concurrent.Callable;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.ScheduledFuture;
import java.util.concurrent.TimeUnit;

/** An event loop's scheduler whose tasks run with a routed context current in place of the server's. */
final class ContextScheduler extends AbstractExecutorService implements ScheduledExecutorService {
    private final ScheduledExecutorService loop;
    private final RequestContext ctx;

    ContextScheduler(ScheduledExecutorService loop, RequestContext ctx) {
        this.loop = loop;
        this.ctx = ctx;
    }

    private Runnable wrap(Runnable task) {
        return () -> CurrentContext.run(ctx, task);
    }

    private <V> Callable<V> wrap(Callable<V> task) {
        return () -> CurrentContext.call(ctx, task);
    }

    @Override
    public void execute(Runnable command) {
        loop.execute(wrap(command));
    }

    @Override
    public ScheduledFuture<?> schedule(Runnable command, long delay, TimeUnit unit) {
        return loop.schedule(wrap(command), delay, unit);
    }

    @Override
    public <V> ScheduledFuture<V> schedule(Callable<V> callable, long delay, TimeUnit unit) {
        return loop.schedule(wrap(callable), delay, unit);
    }

    @Override
    public ScheduledFuture<?> scheduleAtFixedRate(Runnable command, long initialDelay, long period, TimeUnit unit) {
        return loop.scheduleAtFixedRate(wrap(command), initialDelay, period, unit);
    }

    @Override
    public ScheduledFuture<?> scheduleWithFixedDelay(Runnable command, long initialDelay, long delay, TimeUnit unit) {
        return loop.scheduleWithFixedDelay(wrap(command), initialDelay, delay, unit);
    }

    @Override
    public void shutdown() {
        loop.shutdown();
    }

    @Override
    public List<Runnable> shutdownNow() {
        return loop.shutdownNow();
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
