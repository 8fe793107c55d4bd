package io.parry.startup;

import static java.util.Objects.requireNonNull;

/**
 * What a Parry process's {@code main} does first, in one place: the JVM settings Parry wants, the
 * port from the environment and a graceful stop on shutdown. Logging needs no call: with {@code
 * logback-classic} on the class path, {@link ConsoleLogging} configures it.
 *
 * <pre>{@code
 * public static void main(String[] args) {
 *     Startup.prepare();
 *     Server server = Server.builder().port(Startup.port()).handler(handler).build().start();
 *     Startup.onShutdown(() -> server.stop(Duration.ofSeconds(10)));
 * }
 * }</pre>
 */
public final class Startup {
    /** The port a process listens on when {@code PORT} is not set. */
    public static final int DEFAULT_PORT = 8080;

    private static final String NETTY_JFR = "io.netty.jfr.enabled";

    private Startup() {}

    /**
     * Sets the system properties a Parry process starts with, each only where the command line has not
     * set it: {@code io.netty.jfr.enabled=false}, because Netty's allocator registers its JFR events
     * on first use, about 50 ms of start-up on a small machine ({@code -Dio.netty.jfr.enabled=true}
     * keeps them). Call it first, before any Netty class loads.
     */
    public static void prepare() {
        if (System.getProperty(NETTY_JFR) == null) {
            System.setProperty(NETTY_JFR, "false");
        }
    }

    /**
     * The port from the environment variable {@code PORT}, {@value #DEFAULT_PORT} when it is not set.
     *
     * @throws IllegalArgumentException if {@code PORT} is not a number from 0 to 65535
     */
    public static int port() {
        String port = System.getenv("PORT");
        return port == null ? DEFAULT_PORT : parsePort(port);
    }

    /**
     * Runs {@code stop} when the JVM shuts down (SIGTERM, Ctrl-C, {@code System.exit}), on a thread
     * named {@code parry-shutdown}.
     */
    public static void onShutdown(Runnable stop) {
        requireNonNull(stop, "stop");
        Runtime.getRuntime().addShutdownHook(new Thread(stop, "parry-shutdown"));
    }

    static int parsePort(String text) {
        int port;
        try {
            port = Integer.parseInt(text.trim());
        } catch (NumberFormatException e) {
            throw new IllegalArgumentException("PORT: " + text + " (expected: 0 to 65535)", e);
        }
        if (port < 0 || port > 65535) {
            throw new IllegalArgumentException("PORT: " + text + " (expected: 0 to 65535)");
        }
        return port;
    }
}
