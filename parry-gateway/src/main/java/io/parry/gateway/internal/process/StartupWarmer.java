package io.parry.gateway.internal.process;

import io.netty.buffer.PooledByteBufAllocator;
import io.netty.handler.codec.http.HttpRequestDecoder;
import io.netty.handler.codec.http.HttpResponseEncoder;
import io.parry.gateway.internal.config.ConfigLoader;
import io.parry.transport.TransportKind;
import io.parry.transport.spi.Transport;
import java.util.Map;
import java.util.concurrent.CountDownLatch;

/**
 * Loads classes on a second thread while the main thread starts the gateway, so the two cores most
 * machines have share the class loading that makes up most of start-up. First the configuration
 * parser, by parsing a small file, while the main thread sets up logging; then, once logging is set
 * up (Netty and the transport log, and SLF4J must not be used by two threads while it initializes),
 * the native transport, the buffer allocator and the HTTP codec. Class loading is thread-safe, so
 * whichever thread needs a class first loads it; this only moves work off the critical path.
 */
public final class StartupWarmer {
    private static final String SMALL_FILE =
            """
            upstreams: { u: { endpoints: ["127.0.0.1:1"] } }
            routes:
              - { match: { prefix: /a, methods: [GET] }, proxy: { upstream: u, stripPrefix: /a } }
              - { match: { path: "/b/{id}" }, respond: { body: b } }
              - { match: { path: /c }, redirect: { location: /d } }
            """;

    private final CountDownLatch loggingReady = new CountDownLatch(1);

    private StartupWarmer() {}

    /** Starts warming on a daemon thread and returns at once; call it before logging is used. */
    public static StartupWarmer start() {
        StartupWarmer warmer = new StartupWarmer();
        Thread thread = new Thread(warmer::warm, "parry-startup-warmer");
        thread.setDaemon(true);
        thread.start();
        return warmer;
    }

    /** Says that logging is set up, so the classes that log may be loaded too. */
    public void loggingReady() {
        loggingReady.countDown();
    }

    private void warm() {
        try {
            ConfigLoader.parse(SMALL_FILE, "warm-up.yaml", Map.of());
            loggingReady.await();
        } catch (RuntimeException e) {
            // Nothing is lost: the main thread loads what it needs itself.
            return;
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return;
        }
        Transport.resolve(TransportKind.AUTO);
        PooledByteBufAllocator.DEFAULT.buffer(1).release();
        new HttpRequestDecoder();
        new HttpResponseEncoder();
    }
}
