package io.parry.examples.proxy;

import io.parry.client.ClientOptions;
import io.parry.client.ClientProtocol;
import io.parry.client.Endpoint;
import io.parry.client.HttpClient;
import io.parry.client.upstream.Upstream;
import io.parry.proxy.GuardedUpstream;
import io.parry.proxy.ProxyHandler;
import io.parry.server.RequestLimits;
import io.parry.server.Server;
import io.parry.startup.Startup;
import io.parry.transport.TransportKind;
import java.time.Duration;
import java.util.Locale;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Proxies every path to the upstream named by {@code UPSTREAM} ({@code http://host:port} or {@code
 * https://host:port}, several separated by commas) in the HTTP version {@code UPSTREAM_PROTOCOL}
 * names ({@code http1}, the default, {@code h2} or {@code h2c}), listening on {@code PORT} (default
 * 8080); stops gracefully on SIGTERM.
 */
public final class ProxyApp {
    private static final Logger log = LoggerFactory.getLogger(ProxyApp.class);

    private ProxyApp() {}

    public static void main(String[] args) {
        Startup.prepare();
        String upstream = System.getenv("UPSTREAM");
        if (upstream == null || upstream.isBlank()) {
            System.err.println("UPSTREAM is not set (expected: UPSTREAM=http://127.0.0.1:9000)");
            System.exit(2);
        }
        ClientProtocol protocol = ClientProtocol.valueOf(
                System.getenv().getOrDefault("UPSTREAM_PROTOCOL", "http1").toUpperCase(Locale.ROOT));
        HttpClient client = HttpClient.builder()
                .options(ClientOptions.builder().protocol(protocol).build())
                .build();
        GuardedUpstream group =
                GuardedUpstream.builder(upstream(upstream)).client(client).build();
        Server server = start(Startup.port(), group);
        log.info("Proxying :{} to {} over {}", server.port(), group.upstream().endpoints(), protocol);
        Startup.onShutdown(() -> {
            server.stop(Duration.ofSeconds(10));
            group.close();
            client.close();
        });
    }

    /** Starts the proxy on this port (0 for any free port). */
    public static Server start(int port, GuardedUpstream upstream) {
        return Server.builder()
                .port(port)
                .handler(ProxyHandler.to(upstream))
                // The proxy streams bodies of any size with bounded memory; the upstream sets its own limit.
                .options(options -> options.transport(transport())
                        .limits(RequestLimits.builder()
                                .maxBodySize(Long.MAX_VALUE)
                                .build()))
                .build()
                .start();
    }

    /** The event-loop transport named by {@code TRANSPORT} ({@code auto}, {@code epoll}, {@code io_uring}, {@code nio}). */
    static TransportKind transport() {
        return TransportKind.valueOf(
                System.getenv().getOrDefault("TRANSPORT", "auto").toUpperCase(Locale.ROOT));
    }

    /** The upstream group named by a comma-separated list of {@code http://host:port} or {@code https://...} addresses. */
    static Upstream upstream(String addresses) {
        Upstream.Builder builder = Upstream.builder("upstream");
        for (String address : addresses.split(",", -1)) {
            builder.endpoint(Endpoint.parse(address.trim()));
        }
        return builder.build();
    }
}
