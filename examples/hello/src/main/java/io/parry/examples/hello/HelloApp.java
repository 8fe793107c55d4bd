package io.parry.examples.hello;

import io.parry.server.RequestLimits;
import io.parry.server.Server;
import io.parry.startup.Startup;
import java.time.Duration;

/** Starts the hello service on {@code PORT} (default 8080) and stops it gracefully on SIGTERM. */
public final class HelloApp {
    private HelloApp() {}

    public static void main(String[] args) {
        Startup.prepare();
        Server server = start(Startup.port());
        Startup.onShutdown(() -> server.stop(Duration.ofSeconds(10)));
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
