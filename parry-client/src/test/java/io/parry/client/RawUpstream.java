package io.parry.client;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * A raw TCP upstream on 127.0.0.1 for fault tests: each accepted connection runs the script on a
 * thread of its own and is closed when the script returns.
 */
final class RawUpstream implements AutoCloseable {
    /** What the upstream does with one connection. */
    @FunctionalInterface
    interface Script {
        void serve(UpstreamConnection connection) throws Exception;
    }

    private final ServerSocket listener;
    private final Script script;
    private final ExecutorService threads = Executors.newCachedThreadPool(task -> {
        Thread thread = new Thread(task, "raw-upstream");
        thread.setDaemon(true);
        return thread;
    });
    private final AtomicInteger accepted = new AtomicInteger();
    private final CountDownLatch acceptorDone = new CountDownLatch(1);
    private final List<UpstreamConnection> connections = new CopyOnWriteArrayList<>();

    private RawUpstream(ServerSocket listener, Script script) {
        this.listener = listener;
        this.script = script;
    }

    /** Starts an upstream that runs the script for every connection. */
    static RawUpstream start(Script script) {
        return start(InetAddress.getLoopbackAddress(), script);
    }

    /** Starts an upstream listening on this address. */
    static RawUpstream start(InetAddress address, Script script) {
        try {
            ServerSocket listener = new ServerSocket();
            listener.bind(new InetSocketAddress(address, 0), 50);
            RawUpstream upstream = new RawUpstream(listener, script);
            upstream.threads.execute(upstream::acceptAll);
            return upstream;
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    Endpoint endpoint() {
        return Endpoint.of("127.0.0.1", listener.getLocalPort());
    }

    int port() {
        return listener.getLocalPort();
    }

    /** How many connections were accepted. */
    int accepted() {
        return accepted.get();
    }

    /**
     * Closes the listener and waits until its thread has left {@code accept}: only then is a new
     * connection certain to be refused, since a close races an accept in progress.
     */
    void stopAccepting() throws IOException, InterruptedException {
        listener.close();
        if (!acceptorDone.await(10, TimeUnit.SECONDS)) {
            throw new IOException("the listener is still accepting");
        }
    }

    private void acceptAll() {
        try {
            while (!listener.isClosed()) {
                Socket socket = acceptOrWait();
                if (socket == null) {
                    continue;
                }
                accepted.incrementAndGet();
                UpstreamConnection connection = new UpstreamConnection(socket);
                connections.add(connection);
                try {
                    threads.execute(() -> serve(connection));
                } catch (RejectedExecutionException e) {
                    connection.close(); // Accepted while the upstream was closing.
                }
            }
        } catch (IOException e) {
            // Closed.
        } finally {
            acceptorDone.countDown();
        }
    }

    /**
     * The next connection, or {@code null} after a pause when the process has no descriptor left for it
     * ({@code LocalResourcesTest} takes them all): the connection waits in the backlog until one is free,
     * as a server's would.
     */
    private Socket acceptOrWait() throws IOException {
        try {
            return listener.accept();
        } catch (IOException e) {
            if (listener.isClosed() || !String.valueOf(e.getMessage()).contains("Too many open files")) {
                throw e;
            }
            try {
                Thread.sleep(10);
            } catch (InterruptedException interrupted) {
                Thread.currentThread().interrupt();
                throw e;
            }
            return null;
        }
    }

    private void serve(UpstreamConnection connection) {
        try {
            script.serve(connection);
        } catch (Exception e) {
            // The test ended, or the client closed: either way this connection is over.
        } finally {
            connection.close();
        }
    }

    @Override
    public void close() {
        try {
            listener.close();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        connections.forEach(UpstreamConnection::close);
        threads.shutdownNow();
    }
}
