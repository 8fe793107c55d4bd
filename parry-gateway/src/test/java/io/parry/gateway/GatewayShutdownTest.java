package io.parry.gateway;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.parry.http.HttpResponse;
import io.parry.testing.ServerExtension;
import java.io.IOException;
import java.net.ConnectException;
import java.net.Socket;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse.BodyHandlers;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;

/**
 * A graceful stop: readiness turns false, the request in flight finishes, new connections are refused,
 * and the access log writes the drained request's line before the stop returns.
 */
class GatewayShutdownTest {
    private final CountDownLatch received = new CountDownLatch(1);
    private final CompletableFuture<HttpResponse> answer = new CompletableFuture<>();
    private final List<String> accessLines = new CopyOnWriteArrayList<>();

    @RegisterExtension
    final ServerExtension slow = ServerExtension.of((ctx, request) -> {
        received.countDown();
        return answer;
    });

    @TempDir
    Path dir;

    @Test
    void drainsTheRequestInFlightWhileReadinessIsFalseAndNewConnectionsAreRefused() throws Exception {
        try (TestGateway gateway = TestGateway.start(
                dir,
                """
                listener: { host: 127.0.0.1, port: 0 }
                admin: { host: 127.0.0.1, port: 0 }
                upstreams:
                  slow: { endpoints: ["127.0.0.1:${SLOW_PORT}"] }
                routes:
                  - { match: { prefix: / }, proxy: { upstream: slow } }
                """,
                Map.of("SLOW_PORT", Integer.toString(slow.port())),
                builder -> builder.accessLogSink(accessLines::add))) {
            drains(gateway);
        }
    }

    private void drains(TestGateway gateway) throws Exception {
        int port = gateway.gateway().port();
        int adminPort = gateway.gateway().adminPort();
        var inFlight = HttpClient.newBuilder()
                .version(HttpClient.Version.HTTP_1_1)
                .build()
                .sendAsync(
                        HttpRequest.newBuilder(gateway.uri("/work"))
                                .timeout(Duration.ofSeconds(10))
                                .build(),
                        BodyHandlers.ofString());
        assertThat(received.await(10, TimeUnit.SECONDS)).isTrue();

        CompletableFuture<Void> stopped =
                CompletableFuture.runAsync(() -> gateway.gateway().stop(Duration.ofSeconds(10)));

        Await.until("draining", () -> gateway.gateway().isDraining());
        var ready = gateway.admin("/admin/ready");
        assertThat(ready.statusCode()).isEqualTo(503);
        assertThat(ready.body())
                .startsWith("{\"status\":\"DOWN\"")
                .contains("\"server\":{\"status\":\"DOWN\",\"detail\":\"draining\"");
        Await.until("the listener closes", () -> refuses(port));
        assertThat(stopped).isNotDone();

        answer.complete(HttpResponse.ofText("done"));

        var response = inFlight.get(10, TimeUnit.SECONDS);
        assertThat(response.statusCode()).isEqualTo(200);
        assertThat(response.body()).isEqualTo("done");
        stopped.get(10, TimeUnit.SECONDS);
        assertThat(accessLines).anySatisfy(line -> assertThat(line).contains("\"path\":\"/work\"", "\"status\":200"));
        assertThatThrownBy(() -> new Socket("127.0.0.1", adminPort).close()).isInstanceOf(ConnectException.class);
    }

    private static boolean refuses(int port) {
        try (Socket socket = new Socket("127.0.0.1", port)) {
            return false;
        } catch (ConnectException refused) {
            return true;
        } catch (IOException e) {
            return false;
        }
    }
}
