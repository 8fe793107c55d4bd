package io.parry.gateway.internal.demo;

import io.parry.server.ServerOptions;
import io.parry.server.TlsOptions;
import java.io.IOException;
import java.net.ServerSocket;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.function.UnaryOperator;

/**
 * The demo's HTTPS listener: on {@code HTTPS_PORT} (default 8443) with a {@link DemoCertificate} made
 * on a thread of its own while the gateway starts. With {@code HTTPS_PORT} unset and 8443 taken, the
 * demo runs without HTTPS ({@link #port} is -1).
 */
public final class DemoHttps {
    /** The port when {@code HTTPS_PORT} is not set. */
    public static final int DEFAULT_PORT = 8443;

    private final int port;
    private final CompletableFuture<DemoCertificate> certificate;

    private DemoHttps(int port, CompletableFuture<DemoCertificate> certificate) {
        this.port = port;
        this.certificate = certificate;
    }

    /**
     * The demo's HTTPS as the environment asks, its certificate being made already; a port of -1 when
     * {@code HTTPS_PORT} is unset and 8443 is taken.
     *
     * @throws IllegalArgumentException if {@code HTTPS_PORT} is not a port
     */
    public static DemoHttps fromEnvironment(Map<String, String> env) {
        String value = env.get("HTTPS_PORT");
        int port;
        if (value != null) {
            try {
                port = Integer.parseInt(value.trim());
            } catch (NumberFormatException e) {
                port = -1;
            }
            if (port < 0 || port > 65535) {
                throw new IllegalArgumentException("HTTPS_PORT is '" + value + "' (expected: a port from 0 to 65535)");
            }
        } else {
            port = isFree(DEFAULT_PORT) ? DEFAULT_PORT : -1;
        }
        if (port < 0) {
            return new DemoHttps(port, null);
        }
        CompletableFuture<DemoCertificate> certificate = new CompletableFuture<>();
        Thread thread = new Thread(
                () -> {
                    try {
                        certificate.complete(DemoCertificate.generate());
                    } catch (RuntimeException e) {
                        certificate.completeExceptionally(e);
                    }
                },
                "parry-demo-certificate");
        thread.setDaemon(true);
        thread.start();
        return new DemoHttps(port, certificate);
    }

    /** The port asked for (0 for any free one), or -1 for no HTTPS. */
    public int port() {
        return port;
    }

    /** The listener's edits of the cleartext listener's options: this port and TLS with the demo certificate. */
    public UnaryOperator<ServerOptions.Builder> listener() {
        return options -> options.port(port).tls(TlsOptions.of(certificate().tls()));
    }

    /** The certificate, waiting for it to be made. */
    public DemoCertificate certificate() {
        return certificate.join();
    }

    private static boolean isFree(int port) {
        try (ServerSocket probe = new ServerSocket(port)) {
            return true;
        } catch (IOException e) {
            return false;
        }
    }
}
