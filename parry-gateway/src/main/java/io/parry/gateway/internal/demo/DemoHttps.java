package io.parry.gateway.internal.demo;

import java.io.IOException;
import java.net.ServerSocket;
import java.util.Map;

/**
 * Where the demo serves HTTPS: {@code HTTPS_PORT}, or 8443 when it is unset and free. The listener
 * starts after the gateway is ready, with a {@link DemoCertificate}, so neither BouncyCastle nor the
 * TLS set-up delay the first answer on {@code PORT}.
 */
public final class DemoHttps {
    /** The port when {@code HTTPS_PORT} is not set. */
    public static final int DEFAULT_PORT = 8443;

    private DemoHttps() {}

    /**
     * The port to serve HTTPS on (0 for any free one), or -1 when {@code HTTPS_PORT} is unset and 8443
     * is taken.
     *
     * @throws IllegalArgumentException if {@code HTTPS_PORT} is not a port
     */
    public static int port(Map<String, String> env) {
        String value = env.get("HTTPS_PORT");
        if (value == null) {
            return isFree(DEFAULT_PORT) ? DEFAULT_PORT : -1;
        }
        try {
            int port = Integer.parseInt(value.trim());
            if (port >= 0 && port <= 65535) {
                return port;
            }
        } catch (NumberFormatException e) {
            // Reported below.
        }
        throw new IllegalArgumentException("HTTPS_PORT is '" + value + "' (expected: a port from 0 to 65535)");
    }

    private static boolean isFree(int port) {
        try (ServerSocket probe = new ServerSocket(port)) {
            return true;
        } catch (IOException e) {
            return false;
        }
    }
}
