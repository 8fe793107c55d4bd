package io.parry.examples.hello;

import io.parry.server.RequestLimits;
import io.parry.server.Server;
import java.time.Duration;

/** Starts the hello service on {@code PORT} (default 8080) and stops it gracefully on SIGTERM. */
public final class HelloApp {
    private HelloApp() {}

    public static void main(String[] args) {
        // Netty's allocator registers its JFR events on first use, about 50 ms of start-up on a small
        // machine; this service skips them unless -Dio.netty.jfr.enabled=true asks for them.
        if (System.getProperty("io.netty.jfr.enabled") == null) {
            System.setProperty("io.netty.jfr.enabled", "false");
        }
        Server server = start(Integer.parseInt(System.getenv().getOrDefault("PORT", "8080")));
        Runtime.getRuntime().addShutdownHook(new Thread(() -> server.stop(Duration.ofSeconds(10)), "parry-shutdown"));
    }

    /** Starts the service on this port (0 for any free port). */
    public static Server start(int port) {
        return Server.builder()
                .port(port)
                .handler(new HelloHandler())
                // /echo streams bodies of any size with bounded memory, so no body limit applies.
                .options(options -> options.limits(
                        RequestLimits.builder().maxBodySize(Long.MAX_VALUE).build()))
                .build()
                .start();
    }
}
