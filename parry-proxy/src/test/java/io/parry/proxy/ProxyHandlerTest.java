package io.parry.proxy;

import static org.assertj.core.api.Assertions.assertThat;

import io.parry.client.Endpoint;
import io.parry.client.HttpClient;
import io.parry.client.upstream.Upstream;
import io.parry.http.HttpResponse;
import io.parry.http.HttpStatus;
import io.parry.testing.RawConnection;
import io.parry.testing.RawResponse;
import io.parry.testing.ServerExtension;
import java.io.InputStream;
import java.net.http.HttpRequest;
import java.net.http.HttpRequest.BodyPublishers;
import java.net.http.HttpResponse.BodyHandlers;
import java.security.MessageDigest;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

class ProxyHandlerTest {
    private static final AtomicReference<String> completionThread = new AtomicReference<>();
    private static final AtomicReference<String> proxyThread = new AtomicReference<>();

    @RegisterExtension
    static final ServerExtension upstream = ServerExtension.of(
            (ctx, request) -> {
                if (request.path().equals("/echo")) {
                    return HttpResponse.of(HttpStatus.OK, io.parry.http.HttpHeaders.empty(), request.body())
                            .toStage();
                }
                StringBuilder text = new StringBuilder(request.method() + " " + request.target() + "\n");
                request.headers().forEach((name, value) -> text.append(name.toLowerCase(java.util.Locale.ROOT))
                        .append(": ")
                        .append(value)
                        .append('\n'));
                return HttpResponse.ofText(text.toString())
                        .withHeader("X-Upstream", "yes")
                        .withHeader("Keep-Alive", "timeout=5")
                        .toStage();
            },
            options -> options.limits(io.parry.server.RequestLimits.builder()
                    .maxBodySize(Long.MAX_VALUE)
                    .build()));

    private static HttpClient client;
    private static GuardedUpstream group;
    private static volatile ProxyHandler proxy;

    @RegisterExtension
    static final ServerExtension gateway = ServerExtension.of(
            (ctx, request) -> {
                proxyThread.set(Thread.currentThread().getName());
                return proxy.handle(ctx, request);
            },
            options -> options.limits(io.parry.server.RequestLimits.builder()
                    .maxBodySize(Long.MAX_VALUE)
                    .build()));

    @BeforeAll
    static void proxyToUpstream() {
        client = HttpClient.builder()
                .filter((next, endpoint, request) -> next.send(endpoint, request)
                        .whenComplete((response, failure) ->
                                completionThread.set(Thread.currentThread().getName())))
                .build();
        group = GuardedUpstream.builder(Upstream.of("echo", Endpoint.of("127.0.0.1", upstream.port())))
                .client(client)
                .build();
        proxy = ProxyHandler.builder(group)
                .requestHeaders(HeaderRules.builder().set("X-Route", "test").build())
                .responseHeaders(HeaderRules.builder().remove("X-Upstream").build())
                .build();
    }

    @AfterAll
    static void closeUpstream() {
        group.close();
        client.close();
    }

    @Test
    void passesARequestAndItsResponse() throws Exception {
        var response = gateway.client()
                .send(HttpRequest.newBuilder(gateway.uri("/hello?x=1")).build(), BodyHandlers.ofString());

        assertThat(response.statusCode()).isEqualTo(200);
        assertThat(response.body()).startsWith("GET /hello?x=1\n").contains("x-route: test");
        assertThat(response.headers().firstValue("via")).hasValue("1.1 parry");
        assertThat(response.headers().firstValue("x-upstream")).isEmpty();
        assertThat(response.headers().firstValue("keep-alive")).isEmpty();
    }

    @Test
    void addsForwardingHeadersAndRemovesHopByHopOnes() {
        try (RawConnection connection = gateway.connect()) {
            connection.send("GET /h HTTP/1.1\nHost: example.test\nConnection: X-Secret\nX-Secret: 1\n"
                    + "Proxy-Authorization: Basic eA==\nX-Forwarded-For: 6.6.6.6\n\n");
            RawResponse response = connection.readResponse();

            assertThat(response.status()).isEqualTo(200);
            assertThat(response.bodyText())
                    .contains("host: example.test")
                    .contains("x-forwarded-for: 127.0.0.1")
                    .contains("x-forwarded-proto: http")
                    .contains("x-forwarded-host: example.test")
                    .contains("forwarded: for=127.0.0.1;proto=http;host=example.test")
                    .contains("via: 1.1 parry")
                    .doesNotContain("6.6.6.6")
                    .doesNotContainIgnoringCase("x-secret")
                    .doesNotContainIgnoringCase("proxy-authorization");
        }
    }

    @Test
    void answersExpectContinueItselfAndDoesNotForwardIt() {
        try (RawConnection connection = gateway.connect()) {
            connection.send("POST /expect HTTP/1.1\nHost: h\nContent-Length: 4\nExpect: 100-continue\n\n");
            assertThat(connection.readResponseHead().status()).isEqualTo(100);
            connection.sendExactly("data");
            RawResponse response = connection.readResponse();

            assertThat(response.status()).isEqualTo(200);
            assertThat(response.bodyText()).startsWith("POST /expect").doesNotContainIgnoringCase("expect:");
            assertThat(response.header("connection")).isNull();

            connection.send("GET /after HTTP/1.1\nHost: h\n\n");
            assertThat(connection.readResponse().bodyText()).startsWith("GET /after");
        }
    }

    @Test
    void streamsALargeBodyUpAndBackUnchanged() throws Exception {
        byte[] data = new byte[8 * 1024 * 1024 + 17];
        for (int i = 0; i < data.length; i++) {
            data[i] = (byte) (i * 31 + (i >>> 11));
        }
        var response = gateway.client()
                .send(
                        HttpRequest.newBuilder(gateway.uri("/echo"))
                                .POST(BodyPublishers.ofByteArray(data))
                                .build(),
                        BodyHandlers.ofInputStream());

        assertThat(response.statusCode()).isEqualTo(200);
        try (InputStream body = response.body()) {
            assertThat(digest(body.readAllBytes())).isEqualTo(digest(data));
        }
    }

    @Test
    void keepsTheContentLengthOfAHeadResponse() {
        try (RawConnection connection = gateway.connect()) {
            connection.send("HEAD /head HTTP/1.1\nHost: h\n\n");
            RawResponse response = connection.readResponseHead();

            assertThat(response.status()).isEqualTo(200);
            assertThat(response.header("content-length")).isNotNull().isNotEqualTo("0");
        }
    }

    @Test
    void returnsItsConnectionToThePool() throws Exception {
        for (int i = 0; i < 3; i++) {
            gateway.client().send(HttpRequest.newBuilder(gateway.uri("/n")).build(), BodyHandlers.ofString());
        }

        Endpoint endpoint = Endpoint.of("127.0.0.1", upstream.port());
        ProxyFailuresTest.awaitTrue(() -> group.client().poolStats(endpoint).active() == 0);
        assertThat(group.client().poolStats(endpoint).idle()).isPositive();
    }

    @Test
    void staysOnTheDownstreamEventLoop() throws Exception {
        var response = gateway.client()
                .send(HttpRequest.newBuilder(gateway.uri("/thread")).build(), BodyHandlers.ofString());

        assertThat(response.statusCode()).isEqualTo(200);
        assertThat(completionThread.get()).isNotNull().isEqualTo(proxyThread.get());
    }

    private static byte[] digest(byte[] bytes) throws Exception {
        return MessageDigest.getInstance("SHA-256").digest(bytes);
    }
}
