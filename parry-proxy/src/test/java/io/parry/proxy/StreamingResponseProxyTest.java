package io.parry.proxy;

import static org.assertj.core.api.Assertions.assertThat;

import io.parry.client.ClientTimeouts;
import io.parry.client.Endpoint;
import io.parry.client.upstream.Upstream;
import io.parry.http.HttpBody;
import io.parry.http.HttpData;
import io.parry.http.HttpHeaders;
import io.parry.http.HttpResponse;
import io.parry.http.HttpStatus;
import io.parry.server.ServerTimeouts;
import io.parry.testing.RawConnection;
import io.parry.testing.RawResponse;
import io.parry.testing.ServerExtension;
import java.io.BufferedReader;
import java.io.InputStreamReader;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse.BodyHandlers;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.SubmissionPublisher;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * Long streaming responses (server-sent events) pass through the proxy event by event, outliving the
 * request and response-headers timeouts; and upgrades other than WebSocket never reach the upstream.
 */
class StreamingResponseProxyTest {
    private static volatile CompletableFuture<SubmissionPublisher<HttpData>> events = new CompletableFuture<>();

    @RegisterExtension
    static final ServerExtension upstream = ServerExtension.of((ctx, request) -> {
        if (request.path().equals("/events")) {
            SubmissionPublisher<HttpData> publisher = new SubmissionPublisher<>();
            events.complete(publisher);
            return HttpResponse.of(
                            HttpStatus.OK, HttpHeaders.of("content-type", "text/event-stream"), HttpBody.of(publisher))
                    .toStage();
        }
        return HttpResponse.of(
                        HttpStatus.OK,
                        HttpHeaders.empty(),
                        HttpBody.ofUtf8("upgrade=" + request.headers().get("upgrade") + "; connection="
                                + request.headers().get("connection") + "; settings="
                                + request.headers().get("http2-settings")))
                .toStage();
    });

    private static final SwappableHandler handler = new SwappableHandler();

    /** Timeouts far shorter than the stream: only the gap between events may count. */
    @RegisterExtension
    static final ServerExtension gateway = ServerExtension.of(
            handler,
            options -> options.timeouts(
                    ServerTimeouts.builder().request(Duration.ofSeconds(1)).build()));

    private static GuardedUpstream group;

    @BeforeAll
    static void proxyToUpstream() {
        group = GuardedUpstream.of(Upstream.of("sse", Endpoint.of("127.0.0.1", upstream.port())));
        handler.set(ProxyHandler.builder(group)
                .timeouts(ClientTimeouts.builder()
                        .responseHeaders(Duration.ofSeconds(1))
                        .bodyIdle(Duration.ofSeconds(5))
                        .build())
                .build());
    }

    @AfterAll
    static void closeGroup() {
        group.close();
    }

    @Test
    void passesEachEventToTheClientAsItArrives() throws Exception {
        events = new CompletableFuture<>();
        HttpClient client = HttpClient.newHttpClient();
        java.net.http.HttpResponse<java.io.InputStream> response = client.send(
                HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + gateway.port() + "/events"))
                        .build(),
                BodyHandlers.ofInputStream());
        SubmissionPublisher<HttpData> publisher = events.get(5, TimeUnit.SECONDS);
        try (BufferedReader lines =
                new BufferedReader(new InputStreamReader(response.body(), StandardCharsets.UTF_8))) {
            assertThat(response.headers().firstValue("content-type")).hasValue("text/event-stream");
            // Each event is sent only once the one before reached the client: a proxy that held them back would stall.
            for (int i = 1; i <= 5; i++) {
                publisher.submit(HttpData.ofUtf8("data: " + i + "\n\n"));
                assertThat(readLine(lines)).isEqualTo("data: " + i);
                assertThat(readLine(lines)).isEmpty();
            }
            CompletableFuture<Void> later = new CompletableFuture<>();
            // Past both 1 s timeouts: the stream is still open and the next event still arrives.
            CompletableFuture.delayedExecutor(1500, TimeUnit.MILLISECONDS).execute(() -> later.complete(null));
            later.get(5, TimeUnit.SECONDS);
            publisher.submit(HttpData.ofUtf8("data: late\n\n"));
            assertThat(readLine(lines)).isEqualTo("data: late");
            publisher.close();
            assertThat(readLine(lines)).isEmpty();
            assertThat(readLine(lines)).isNull();
        }
    }

    @Test
    void neverForwardsAnUpgradeToH2c() {
        try (RawConnection connection = gateway.connect()) {
            connection.send("GET /plain HTTP/1.1\nHost: h\nUpgrade: h2c\nConnection: Upgrade, HTTP2-Settings\n"
                    + "HTTP2-Settings: AAMAAABkAARAAAAAAAIAAAAA\n\n");
            RawResponse response = connection.readResponse();

            assertThat(response.status()).isEqualTo(200);
            assertThat(response.bodyText()).isEqualTo("upgrade=null; connection=null; settings=null");
        }
    }

    private static String readLine(BufferedReader lines) throws Exception {
        return CompletableFuture.supplyAsync(() -> {
                    try {
                        return lines.readLine();
                    } catch (java.io.IOException e) {
                        throw new java.io.UncheckedIOException(e);
                    }
                })
                .get(5, TimeUnit.SECONDS);
    }
}
