package io.parry.examples.hello;

import io.parry.server.RequestLimits;
import io.parry.server.Server;
import io.parry.server.TlsCertificate;
import io.parry.server.TlsOptions;
import io.parry.startup.Startup;
import java.nio.file.Path;
import java.time.Duration;

/**
 * Starts the hello service on {@code PORT} (default 8080) and stops it gracefully on SIGTERM. With {@code TLS_CERT}
 * and {@code TLS_KEY} (a PEM chain and its PKCS#8 key) the port speaks HTTPS instead, h2 or http/1.1 by ALPN.
 */
public final class HelloApp {
    private HelloApp() {}

    public static void main(String[] args) {
        Startup.prepare();
        String chain = System.getenv("TLS_CERT");
        String key = System.getenv("TLS_KEY");
        TlsOptions tls = chain == null || key == null
                ? null
                : TlsOptions.of(TlsCertificate.ofFiles(Path.of(chain), Path.of(key)));
        Server server = start(Startup.port(), tls);
        Startup.onShutdown(() -> server.stop(Duration.ofSeconds(10)));
    }

    /** Starts the service on this port (0 for any free port). */
    public static Server start(int port) {
        return start(port, null);
    }

    /** Starts the service on this port, over TLS unless {@code tls} is {@code null}. */
    public static Server start(int port, TlsOptions tls) {
        return Server.builder()
                .port(port)
                .handler(new HelloHandler())
                // /echo streams bodies of any size with bounded memory, so no body limit applies.
                .options(options -> {
                    options.limits(
                            RequestLimits.builder().maxBodySize(Long.MAX_VALUE).build());
                    if (tls != null) {
                        options.tls(tls);
                    }
                })
                .build()
                .start();
    }
}
