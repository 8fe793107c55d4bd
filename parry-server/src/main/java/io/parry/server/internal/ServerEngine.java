package io.parry.server.internal;

import io.netty.bootstrap.ServerBootstrap;
import io.netty.channel.AdaptiveRecvByteBufAllocator;
import io.netty.channel.Channel;
import io.netty.channel.ChannelOption;
import io.netty.channel.EventLoopGroup;
import io.netty.channel.WriteBufferWaterMark;
import io.parry.server.Handler;
import io.parry.server.Rejection;
import io.parry.server.RequestListener;
import io.parry.server.RequestTracer;
import io.parry.server.ServerOptions;
import io.parry.transport.TransportKind;
import io.parry.transport.spi.Transport;
import java.net.InetSocketAddress;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/** Starts and stops a server: event loops, the listener, and the graceful drain of connections. */
public final class ServerEngine {
    private static final Logger log = LoggerFactory.getLogger("io.parry.server.Server");

    private final ServerOptions options;
    private final ServerRuntime runtime;
    private final Transport transport;
    private final ServerInitializer initializer;
    private EventLoopGroup bossGroup;
    private EventLoopGroup workerGroup;
    private Channel listener;
    private int port = -1;
    private boolean started;
    private boolean stopped;
    private OverloadState overload;
    private Runnable overloadWatch;

    /** An engine; {@code tracer} is {@code null} when Parry numbers spans itself. */
    public ServerEngine(ServerOptions options, Handler handler, List<RequestListener> listeners, RequestTracer tracer) {
        this.options = options;
        this.runtime = new ServerRuntime(options, handler, new RequestListeners(listeners), tracer);
        this.transport = Transport.resolve(options.transport());
        this.initializer = new ServerInitializer(runtime);
    }

    /** Samples this overload state on the server's event loops while it runs. */
    public synchronized void watch(OverloadState overload) {
        this.overload = overload;
    }

    public synchronized void start() {
        if (started || stopped) {
            throw new IllegalStateException(stopped ? "the server was stopped" : "the server was started before");
        }
        started = true;
        long begin = System.nanoTime();
        bossGroup = transport.newEventLoopGroup(1, "parry-accept");
        workerGroup = transport.newEventLoopGroup(options.eventLoopThreads(), "parry-loop");
        ServerBootstrap bootstrap = new ServerBootstrap()
                .group(bossGroup, workerGroup)
                .channel(transport.serverChannelType())
                .option(ChannelOption.SO_BACKLOG, 4096)
                .option(ChannelOption.SO_REUSEADDR, true)
                .childOption(ChannelOption.TCP_NODELAY, true)
                // One allocator for every connection: it holds only settings, per-connection state is in its handle.
                .childOption(ChannelOption.RECVBUF_ALLOCATOR, new AdaptiveRecvByteBufAllocator())
                .childOption(ChannelOption.WRITE_BUFFER_WATER_MARK, new WriteBufferWaterMark(32 * 1024, 64 * 1024))
                .childHandler(initializer);
        try {
            listener = bootstrap.bind(options.host(), options.port()).sync().channel();
        } catch (Exception e) {
            shutdownGroups();
            stopTls();
            throw new IllegalStateException("cannot listen on " + options.host() + ":" + options.port(), e);
        }
        // After Netty's acceptor, which the bind has installed and which pauses accepting on a failure.
        listener.pipeline().addLast(new AcceptFailures(runtime.rejections, log::warn));
        port = ((InetSocketAddress) listener.localAddress()).getPort();
        if (overload != null) {
            overloadWatch = overload.watch(workerGroup);
        }
        if (runtime.tls != null) {
            runtime.tls.start();
        }
        log.info(
                "Listening on {}:{}{} ({} transport, {} event loops, blocking work on {}) in {} ms",
                options.host(),
                port,
                runtime.tls != null ? " with TLS" : "",
                transport.kind(),
                options.eventLoopThreads(),
                runtime.workers.isVirtual() ? "virtual threads" : "a platform pool",
                TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - begin));
    }

    public synchronized int port() {
        if (port < 0) {
            throw new IllegalStateException("the server is not started");
        }
        return port;
    }

    public TransportKind transport() {
        return transport.kind();
    }

    public boolean isDraining() {
        return runtime.isDraining();
    }

    public int connections() {
        return runtime.connections.open();
    }

    public int workerTasks() {
        return runtime.workers.tasks();
    }

    public long rejections(Rejection reason) {
        return runtime.rejections.count(reason);
    }

    public synchronized void stop(Duration grace) {
        if (stopped) {
            return;
        }
        stopped = true;
        if (!started) {
            // A server built but never started still holds its TLS contexts, which it then gives up for good.
            stopTls();
            return;
        }
        long deadline = System.nanoTime() + grace.toNanos();
        runtime.startDraining();
        listener.close().syncUninterruptibly();
        awaitDrained(deadline);
        stopTls();
        runtime.workers.shutdown(Math.max(0, TimeUnit.NANOSECONDS.toMillis(deadline - System.nanoTime())));
        if (overloadWatch != null) {
            overloadWatch.run();
        }
        shutdownGroups();
        log.info("Stopped listening on port {}", port);
    }

    /**
     * Asks every connection to drain and waits, on their close events, until all are closed; at the
     * deadline closes the rest.
     */
    private void awaitDrained(long deadline) {
        CompletableFuture<Void> closed = runtime.connections.closing();
        runtime.connections.sweepers().forEach(sweeper -> sweeper.execute(sweeper::drainAll));
        try {
            closed.get(Math.max(0, deadline - System.nanoTime()), TimeUnit.NANOSECONDS);
            return;
        } catch (TimeoutException e) {
            log.info("{} connections still open at the shutdown deadline; closing them", runtime.connections.open());
        } catch (ExecutionException e) {
            throw new IllegalStateException(e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
        runtime.connections.sweepers().forEach(sweeper -> sweeper.execute(sweeper::closeAll));
        try {
            closed.get(1, TimeUnit.SECONDS);
        } catch (TimeoutException | ExecutionException e) {
            log.warn("{} connections did not close; the event loops will close them", runtime.connections.open());
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    private void stopTls() {
        if (runtime.tls != null) {
            runtime.tls.stop();
        }
    }

    private void shutdownGroups() {
        if (bossGroup != null) {
            bossGroup.shutdownGracefully(0, 1, TimeUnit.SECONDS).syncUninterruptibly();
        }
        if (workerGroup != null) {
            workerGroup.shutdownGracefully(0, 1, TimeUnit.SECONDS).syncUninterruptibly();
        }
    }
}
