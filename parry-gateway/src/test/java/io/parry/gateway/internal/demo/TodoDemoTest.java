package io.parry.gateway.internal.demo;

import static org.assertj.core.api.Assertions.assertThat;

import io.parry.server.health.HealthStatus;
import java.net.InetAddress;
import java.net.Socket;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.net.http.HttpResponse.BodyHandlers;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

class TodoDemoTest {
    private static final HttpClient CLIENT = HttpClient.newHttpClient();

    /** A port chosen and then bound later can be taken by another process in between; a bound one cannot. */
    @Test
    void listensOnItsPortsBeforeTheGatewayIsConfigured() throws Exception {
        try (TodoDemo demo = TodoDemo.bind()) {
            try (Socket todo = new Socket(InetAddress.getLoopbackAddress(), demo.port())) {
                assertThat(todo.isConnected()).isTrue();
            }
        }
    }

    @Test
    void answersRequestsThatCameBeforeItsSetUpOnceItIsDone() throws Exception {
        try (TodoDemo demo = TodoDemo.bind()) {
            CompletableFuture<HttpResponse<String>> early = CLIENT.sendAsync(
                    HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + demo.port() + "/"))
                            .build(),
                    BodyHandlers.ofString());
            assertThat(demo.readiness().check().toCompletableFuture().join().isUp())
                    .isFalse();

            demo.start().toCompletableFuture().get(30, TimeUnit.SECONDS);

            assertThat(early.get(30, TimeUnit.SECONDS).statusCode()).isEqualTo(200);
            HealthStatus ready = demo.readiness().check().toCompletableFuture().join();
            assertThat(ready.isUp()).isTrue();
            assertThat(demo.token()).contains(".");
        }
    }
}
