package io.parry.it.http2;

import static org.assertj.core.api.Assertions.assertThat;

import io.parry.http.HttpResponse;
import io.parry.server.Handler;
import io.parry.server.Http2Options;
import io.parry.server.Server;
import io.parry.testing.NettyLeakExtension;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse.BodyHandlers;
import java.time.Duration;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/** {@code Upgrade: h2c} switches a connection to HTTP/2 only when the server opts in; the JDK client asks for it. */
@ExtendWith(NettyLeakExtension.class)
class H2cUpgradeTest {
    private final Handler handler = (ctx, request) ->
            HttpResponse.ofText(ctx.protocol() + " " + request.path()).toStage();
    private final HttpClient client = HttpClient.newBuilder()
            .version(HttpClient.Version.HTTP_2)
            .connectTimeout(Duration.ofSeconds(5))
            .build();
    private Server server;

    @AfterEach
    void stopServer() {
        server.stop(Duration.ZERO);
    }

    @Test
    void upgradesAndAnswersTheRequestAsStreamOneWhenOptedIn() throws Exception {
        start(true);

        var first = get("/first");
        var second = get("/second");

        assertThat(first.version()).isEqualTo(HttpClient.Version.HTTP_2);
        assertThat(first.body()).isEqualTo("HTTP/2.0 /first");
        assertThat(second.body()).isEqualTo("HTTP/2.0 /second");
    }

    @Test
    void staysOnHttp11ByDefault() throws Exception {
        start(false);

        var response = get("/first");

        assertThat(response.version()).isEqualTo(HttpClient.Version.HTTP_1_1);
        assertThat(response.body()).isEqualTo("HTTP/1.1 /first");
    }

    private java.net.http.HttpResponse<String> get(String path) throws Exception {
        return client.send(
                HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + server.port() + path))
                        .timeout(Duration.ofSeconds(10))
                        .build(),
                BodyHandlers.ofString());
    }

    private void start(boolean upgrade) {
        server = Server.builder()
                .host("127.0.0.1")
                .port(0)
                .handler(handler)
                .options(o -> o.http2(Http2Options.builder().upgrade(upgrade).build()))
                .build()
                .start();
    }
}
