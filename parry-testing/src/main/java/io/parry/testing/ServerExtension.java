package io.parry.testing;

import static java.util.Objects.requireNonNull;

import io.parry.server.Handler;
import io.parry.server.Server;
import io.parry.server.ServerOptions;
import java.net.URI;
import java.net.http.HttpClient;
import java.time.Duration;
import java.util.function.Consumer;
import org.junit.jupiter.api.extension.AfterAllCallback;
import org.junit.jupiter.api.extension.AfterEachCallback;
import org.junit.jupiter.api.extension.BeforeAllCallback;
import org.junit.jupiter.api.extension.BeforeEachCallback;
import org.junit.jupiter.api.extension.ExtensionContext;

/**
 * A JUnit 5 extension that runs a real Parry server on 127.0.0.1 and an ephemeral port. Registered
 * on a static field it serves the whole class; on an instance field, each test gets its own server.
 *
 * <pre>{@code
 * @RegisterExtension
 * static final ServerExtension server = ServerExtension.of(Handler.sync((ctx, req) -> HttpResponse.ofText("hi")));
 *
 * @Test
 * void answers() throws Exception {
 *     var response = server.client().send(HttpRequest.newBuilder(server.uri("/")).build(), BodyHandlers.ofString());
 *     assertThat(response.body()).isEqualTo("hi");
 * }
 * }</pre>
 */
public final class ServerExtension
        implements BeforeAllCallback, AfterAllCallback, BeforeEachCallback, AfterEachCallback {
    private final Handler handler;
    private final Consumer<ServerOptions.Builder> options;
    private Server server;
    private HttpClient client;
    private boolean perClass;

    private ServerExtension(Handler handler, Consumer<ServerOptions.Builder> options) {
        this.handler = requireNonNull(handler, "handler");
        this.options = requireNonNull(options, "options");
    }

    /** A server with default options and this handler. */
    public static ServerExtension of(Handler handler) {
        return new ServerExtension(handler, options -> {});
    }

    /** A server with this handler and options changed by the edits (host and port are set by the extension). */
    public static ServerExtension of(Handler handler, Consumer<ServerOptions.Builder> options) {
        return new ServerExtension(handler, options);
    }

    @Override
    public void beforeAll(ExtensionContext context) {
        perClass = true;
        start();
    }

    @Override
    public void afterAll(ExtensionContext context) {
        stop();
    }

    @Override
    public void beforeEach(ExtensionContext context) {
        if (!perClass) {
            start();
        }
    }

    @Override
    public void afterEach(ExtensionContext context) {
        if (!perClass) {
            stop();
        }
    }

    private void start() {
        ServerOptions.Builder builder = ServerOptions.builder();
        options.accept(builder);
        server = Server.of(builder.host("127.0.0.1").port(0).build(), handler).start();
    }

    private void stop() {
        if (server != null) {
            server.stop(Duration.ofSeconds(5));
            server = null;
        }
        client = null;
    }

    /** The running server. */
    public Server server() {
        if (server == null) {
            throw new IllegalStateException("the server runs only while a test runs");
        }
        return server;
    }

    /** The server's port. */
    public int port() {
        return server().port();
    }

    /** The URI of this path on the server, for example {@code uri("/todos")}. */
    public URI uri(String path) {
        return URI.create("http://127.0.0.1:" + port() + path);
    }

    /** An HTTP/1.1 JDK client for this server, shared by the tests it serves. */
    public HttpClient client() {
        if (client == null) {
            client = HttpClient.newBuilder()
                    .version(HttpClient.Version.HTTP_1_1)
                    .connectTimeout(Duration.ofSeconds(5))
                    .build();
        }
        return client;
    }

    /** A new raw-socket connection to the server, for protocol edge cases. */
    public RawConnection connect() {
        return RawConnection.open("127.0.0.1", port());
    }
}
