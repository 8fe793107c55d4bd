package io.parry.proxy;

import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpServer;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.io.UncheckedIOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.time.Duration;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Semaphore;
import java.util.concurrent.TimeUnit;

/**
 * An upstream of fixed capacity whose latency rises with concurrency: {@code /work} holds one of
 * {@code permits} for the configured service time (after reading the request body), and requests
 * past the permits wait in line, as a thread pool in front of a busy resource does. {@code /large}
 * answers at once with a body larger than the sockets' buffers. A plain JDK server, so nothing of
 * Parry is on the upstream's side.
 */
final class CapacityUpstream implements AutoCloseable {
    static final int LARGE_BODY = 4 * 1024 * 1024;

    private final HttpServer server;
    private final ExecutorService threads = Executors.newFixedThreadPool(256);
    private final Semaphore permits;
    /** One permit per {@code /work} request whose head arrived. */
    private final Semaphore arrivals = new Semaphore(0);

    private volatile long serviceMillis;

    private CapacityUpstream(int permits, Duration serviceTime) throws IOException {
        this.permits = new Semaphore(permits, true);
        this.serviceMillis = serviceTime.toMillis();
        this.server = HttpServer.create(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0), 512);
        server.createContext("/work", this::work);
        server.createContext("/large", CapacityUpstream::large);
        server.setExecutor(threads);
        server.start();
    }

    static CapacityUpstream start(int permits, Duration serviceTime) {
        try {
            return new CapacityUpstream(permits, serviceTime);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    int port() {
        return server.getAddress().getPort();
    }

    /** Changes how long each request holds its permit (the upstream slows down or recovers). */
    void serviceTime(Duration serviceTime) {
        this.serviceMillis = serviceTime.toMillis();
    }

    /** Waits until {@code count} more {@code /work} requests have arrived (their heads, at least). */
    void awaitArrivals(int count, Duration timeout) throws InterruptedException {
        if (!arrivals.tryAcquire(count, timeout.toMillis(), TimeUnit.MILLISECONDS)) {
            throw new AssertionError(count + " requests did not arrive within " + timeout);
        }
    }

    private void work(HttpExchange exchange) throws IOException {
        arrivals.release();
        try (InputStream body = exchange.getRequestBody()) {
            body.readAllBytes();
        }
        try {
            permits.acquire();
            try {
                // The upstream's service time: it is what the test measures, not a wait for an event.
                Thread.sleep(serviceMillis);
            } finally {
                permits.release();
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
        byte[] ok = "ok".getBytes();
        exchange.sendResponseHeaders(200, ok.length);
        try (OutputStream out = exchange.getResponseBody()) {
            out.write(ok);
        }
    }

    private static void large(HttpExchange exchange) throws IOException {
        exchange.sendResponseHeaders(200, LARGE_BODY);
        byte[] chunk = new byte[64 * 1024];
        try (OutputStream out = exchange.getResponseBody()) {
            for (int sent = 0; sent < LARGE_BODY; sent += chunk.length) {
                out.write(chunk);
            }
        } catch (IOException e) {
            // The gateway closed the connection: its client stopped reading.
        }
    }

    @Override
    public void close() {
        server.stop(0);
        threads.shutdownNow();
    }
}
