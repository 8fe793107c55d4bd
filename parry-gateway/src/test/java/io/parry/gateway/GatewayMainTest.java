package io.parry.gateway;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.parry.testing.ServerExtension;
import java.io.IOException;
import java.net.InetAddress;
import java.net.Socket;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.net.http.HttpResponse.BodyHandlers;
import java.net.http.WebSocket;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.MessageDigest;
import java.security.cert.X509Certificate;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import javax.net.ssl.SSLContext;
import javax.net.ssl.SSLSocket;
import javax.net.ssl.TrustManager;
import javax.net.ssl.X509TrustManager;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;

/** The command line in a process of its own: real signals, exit statuses and the demo. */
class GatewayMainTest {
    private static final HttpClient CLIENT =
            HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1).build();
    private static final ObjectMapper JSON = new ObjectMapper();

    @RegisterExtension
    static final ServerExtension upstream = ServerExtension.of(EchoUpstream.named("up"));

    private static final CountDownLatch slowRequestArrived = new CountDownLatch(1);
    private static final CompletableFuture<io.parry.http.HttpResponse> slowResponse = new CompletableFuture<>();

    @RegisterExtension
    static final ServerExtension slowUpstream = ServerExtension.of((ctx, request) -> {
        slowRequestArrived.countDown();
        return slowResponse;
    });

    @TempDir
    Path dir;

    @Test
    void sighupReloadsAndSigtermDrainsAndExitsWithStatusZero() throws Exception {
        Path file = Files.writeString(
                dir.resolve("gateway.yaml"),
                """
                listener: { host: 127.0.0.1, port: 0 }
                admin: { host: 127.0.0.1, port: 0 }
                upstreams:
                  up: { endpoints: ["127.0.0.1:%d"] }
                routes:
                  - { match: { prefix: / }, proxy: { upstream: up } }
                """
                        .formatted(upstream.port()));
        try (ChildGateway child = ChildGateway.start(Map.of(), file.toString())) {
            int[] ports = child.awaitPorts();
            child.awaitLine("ms after main() began");
            assertThat(get(ports[0], "/x").body()).startsWith("up GET /x ");

            if (hangupIgnoredHere()) {
                // A child inherits an ignored SIGHUP (this build runs under nohup), which its JVM then keeps.
                child.awaitLine("SIGHUP is ignored by this process (started with nohup?)");
            } else {
                child.signal("HUP");
                child.awaitLine("Reload on SIGHUP: " + file + " is unchanged; version 1 keeps serving");
            }

            child.signal("TERM");

            assertThat(child.awaitExit()).isZero();
            assertThat(child.output()).contains("Draining: readiness is false", "Gateway stopped");
        }
    }

    @Test
    void secondSigtermDoesNotCutTheDrainShort() throws Exception {
        Path file = Files.writeString(
                dir.resolve("gateway.yaml"),
                """
                listener: { host: 127.0.0.1, port: 0 }
                admin: { host: 127.0.0.1, port: 0 }
                upstreams:
                  slow: { endpoints: ["127.0.0.1:%d"], timeouts: { responseHeaders: 30s } }
                routes:
                  - { match: { prefix: / }, proxy: { upstream: slow } }
                """
                        .formatted(slowUpstream.port()));
        try (ChildGateway child = ChildGateway.start(Map.of(), file.toString())) {
            int[] ports = child.awaitPorts();
            child.awaitLine("ms after main() began");
            // A request in flight keeps the drain going, so the process is alive for the second signal.
            CompletableFuture<HttpResponse<String>> inFlight = CLIENT.sendAsync(
                    HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + ports[0] + "/slow"))
                            .build(),
                    BodyHandlers.ofString());
            assertThat(slowRequestArrived.await(10, TimeUnit.SECONDS)).isTrue();

            child.signal("TERM");
            child.awaitLine("Draining: readiness is false");
            child.signal("TERM");
            slowResponse.complete(io.parry.http.HttpResponse.ofText("finished"));

            assertThat(inFlight.get(10, TimeUnit.SECONDS).body()).isEqualTo("finished");
            assertThat(child.awaitExit()).isZero();
            assertThat(child.output()).contains("Gateway stopped");
        }
    }

    @Test
    void invalidConfigurationExitsWithStatusOneAndSaysWhere() throws Exception {
        Path file = Files.writeString(
                dir.resolve("bad.yaml"),
                """
                listener: { port: 0 }
                routes:
                  - { match: { prefix: / }, proxy: { upstream: nowhere } }
                """);
        try (ChildGateway child = ChildGateway.start(Map.of(), file.toString())) {
            assertThat(child.awaitExit()).isEqualTo(1);
            assertThat(child.output())
                    .contains("The gateway did not start", file + ":3:")
                    .contains("nowhere");
        }
    }

    @Test
    void checkValidatesTheFileAndExits() throws Exception {
        Path file = Files.writeString(dir.resolve("ok.yaml"), "routes: []\n");
        try (ChildGateway child = ChildGateway.start(Map.of(), "--check", file.toString())) {
            assertThat(child.awaitExit()).isZero();
            assertThat(child.output()).contains("configuration file " + file + " is ok");
        }
    }

    @Test
    void unknownOptionPrintsUsageAndExitsWithStatusTwo() throws Exception {
        try (ChildGateway child = ChildGateway.start(Map.of(), "--verbose")) {
            assertThat(child.awaitExit()).isEqualTo(2);
            assertThat(child.output()).contains("usage: java -jar parry-gateway.jar");
        }
    }

    @Test
    void demoWritesEachAccessLogLineToTheConsoleAsBareJson() throws Exception {
        try (ChildGateway child = ChildGateway.start(Map.of("PORT", "0", "ADMIN_PORT", "0", "HTTPS_PORT", "0"))) {
            int[] ports = child.awaitPorts();
            child.awaitLine("Demo: try");

            assertThat(get(ports[0], "/api/todos").statusCode()).isEqualTo(200);

            String text = child.awaitLine("\"route\":\"todos\"");
            assertThat(text).startsWith("{\"time\":").endsWith("}");
            JsonNode line = JSON.readTree(text);
            assertThat(line.get("path").asText()).isEqualTo("/api/todos");
            assertThat(line.get("upstream").asText()).startsWith("todo/127.0.0.1:");
            assertThat(line.get("status").asInt()).isEqualTo(200);
            child.signal("TERM");
            assertThat(child.awaitExit()).isZero();
        }
    }

    @Test
    void demoServesEveryRouteOverHttpsWithTheCertificateWhoseFingerprintItPrints() throws Exception {
        try (ChildGateway child = ChildGateway.start(Map.of("PORT", "0", "ADMIN_PORT", "0", "HTTPS_PORT", "0"))) {
            child.awaitPorts();
            Matcher https = Pattern.compile("https://localhost:(\\d+) .* SHA-256 fingerprint ([0-9A-F:]+)")
                    .matcher(child.awaitLine("Demo HTTPS on"));
            assertThat(https.find()).isTrue();
            child.awaitLine("Demo: try");
            int port = Integer.parseInt(https.group(1));

            try (SSLSocket socket =
                    (SSLSocket) trustingAnyone().getSocketFactory().createSocket("127.0.0.1", port)) {
                socket.startHandshake();
                byte[] der = socket.getSession().getPeerCertificates()[0].getEncoded();
                assertThat(HexFormat.ofDelimiter(":")
                                .withUpperCase()
                                .formatHex(MessageDigest.getInstance("SHA-256").digest(der)))
                        .isEqualTo(https.group(2));
                X509Certificate certificate =
                        (X509Certificate) socket.getSession().getPeerCertificates()[0];
                assertThat(certificate.getPublicKey().getAlgorithm()).isEqualTo("EC");
                assertThat(certificate.getSubjectAlternativeNames())
                        .extracting(name -> (Object) name.get(1))
                        .containsExactly("localhost", "127.0.0.1", "0:0:0:0:0:0:0:1");
                socket.getOutputStream()
                        .write("GET /api/todos HTTP/1.1\r\nHost: localhost\r\nConnection: close\r\n\r\n"
                                .getBytes(StandardCharsets.US_ASCII));
                String response = new String(socket.getInputStream().readAllBytes(), StandardCharsets.US_ASCII);
                assertThat(response).startsWith("HTTP/1.1 200 ").endsWith("[]");
            }
            child.signal("TERM");
            assertThat(child.awaitExit()).isZero();
        }
    }

    /** A client TLS context that accepts any server certificate: the test checks the fingerprint itself. */
    private static SSLContext trustingAnyone() throws Exception {
        SSLContext context = SSLContext.getInstance("TLS");
        context.init(
                null,
                new TrustManager[] {
                    new X509TrustManager() {
                        @Override
                        public void checkClientTrusted(X509Certificate[] chain, String authType) {}

                        @Override
                        public void checkServerTrusted(X509Certificate[] chain, String authType) {}

                        @Override
                        public X509Certificate[] getAcceptedIssuers() {
                            return new X509Certificate[0];
                        }
                    }
                },
                null);
        return context;
    }

    @Test
    void noArgumentRunsTheDemoWithHelloAndTheTodoExample() throws Exception {
        try (ChildGateway child = ChildGateway.start(Map.of("PORT", "0", "ADMIN_PORT", "0", "HTTPS_PORT", "0"))) {
            int[] ports = child.awaitPorts();
            child.awaitLine("Demo: try");

            HttpResponse<String> hello = get(ports[0], "/hello");
            assertThat(hello.statusCode()).isEqualTo(200);
            assertThat(hello.body()).isEqualTo("Hello from Parry\n");
            HttpResponse<String> todos = get(ports[0], "/api/todos");
            assertThat(todos.statusCode()).isEqualTo(200);
            assertThat(todos.body()).isEqualTo("[]");
            assertThat(get(ports[1], "/admin/ready").statusCode()).isEqualTo(200);

            child.signal("TERM");
            assertThat(child.awaitExit()).isZero();
        }
    }

    @Test
    void demoCountsAnEchoSessionAtTheGatewayAndAtItsServiceInTheMetricsAndTheAdminView() throws Exception {
        try (ChildGateway child = ChildGateway.start(Map.of("PORT", "0", "ADMIN_PORT", "0", "HTTPS_PORT", "0"))) {
            int[] ports = child.awaitPorts();
            child.awaitLine("Demo: try");
            CompletableFuture<String> echoed = new CompletableFuture<>();
            WebSocket socket = CLIENT.newWebSocketBuilder()
                    .buildAsync(URI.create("ws://127.0.0.1:" + ports[0] + "/ws/echo"), new WebSocket.Listener() {
                        @Override
                        public CompletionStage<?> onText(WebSocket webSocket, CharSequence data, boolean last) {
                            echoed.complete(data.toString());
                            return null;
                        }
                    })
                    .get(10, TimeUnit.SECONDS);

            socket.sendText("over the demo", true).get(10, TimeUnit.SECONDS);
            assertThat(echoed.get(10, TimeUnit.SECONDS)).isEqualTo("over the demo");

            String scrape = get(ports[1], "/admin/metrics").body();
            assertThat(scrape)
                    .containsPattern("parry_proxy_websocket_sessions\\{[^}]*upstream=\"todo\"[^}]*} 1\\.0")
                    .containsPattern("parry_proxy_websocket_opened_total\\{route=\"ws-echo\",upstream=\"todo\"} 1\\.0")
                    .contains("parry_websocket_sessions{route=\"demo-echo\"} 1.0")
                    .contains("parry_websocket_messages_total{direction=\"in\",route=\"demo-echo\"} 1.0")
                    .doesNotContain("/ws/echo");
            assertThat(get(ports[1], "/admin/upstreams").body()).contains("\"webSocketSessions\":1");
            socket.sendClose(WebSocket.NORMAL_CLOSURE, "").get(10, TimeUnit.SECONDS);
            child.signal("TERM");
            assertThat(child.awaitExit()).isZero();
        }
    }

    @Test
    void demoPrintsATokenThatItsJwtProtectedRouteAccepts() throws Exception {
        try (ChildGateway child = ChildGateway.start(Map.of("PORT", "0", "ADMIN_PORT", "0"))) {
            int[] ports = child.awaitPorts();
            String line = child.awaitLine("Authorization: Bearer ");
            String token = line.substring(
                    line.indexOf("Bearer ") + "Bearer ".length(), line.indexOf('\'', line.indexOf("Bearer ")));

            assertThat(get(ports[0], "/api/private").statusCode()).isEqualTo(401);
            HttpResponse<String> admitted = CLIENT.send(
                    HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + ports[0] + "/api/private"))
                            .header("Authorization", "Bearer " + token)
                            .build(),
                    BodyHandlers.ofString());
            assertThat(admitted.statusCode()).isEqualTo(200);
            assertThat(admitted.body()).isEqualTo("Hello, verified caller\n");
        }
    }

    @Test
    void demoTodosAnswerOnceTheTodoServiceListensEvenAfterEarlyRequestsFailed() throws Exception {
        try (ChildGateway child = ChildGateway.start(Map.of("PORT", "0", "ADMIN_PORT", "0", "HTTPS_PORT", "0"))) {
            int[] ports = child.awaitPorts();
            // Sent while the todo service is still starting; each would be retried and counted as failures.
            for (int i = 0; i < 5; i++) {
                assertThat(get(ports[0], "/api/todos").statusCode()).isIn(200, 503);
            }
            child.awaitLine("Demo: try");

            for (int i = 0; i < 5; i++) {
                assertThat(get(ports[0], "/api/todos").statusCode()).isEqualTo(200);
            }
            child.signal("TERM");
            assertThat(child.awaitExit()).isZero();
        }
    }

    @Test
    void demoIsReadyOnlyOnceItsTodoRoutesAnswer() throws Exception {
        try (ChildGateway child = ChildGateway.start(Map.of("PORT", "0", "ADMIN_PORT", "0", "HTTPS_PORT", "0"))) {
            int[] ports = child.awaitPorts();

            Await.until("the demo is ready", () -> status(ports[1], "/admin/ready") == 200);

            assertThat(get(ports[0], "/api/todos").statusCode()).isEqualTo(200);
            child.signal("TERM");
            assertThat(child.awaitExit()).isZero();
        }
    }

    @Test
    void demoStartAndItsFirstConcurrentRequestsLogNoWarning() throws Exception {
        try (ChildGateway child = ChildGateway.start(Map.of("PORT", "0", "ADMIN_PORT", "0", "HTTPS_PORT", "0"))) {
            int[] ports = child.awaitPorts();
            child.awaitLine("Demo: try");

            // The first requests, sent together on connections already open on every event loop, register
            // the meters.
            List<Socket> connections = new ArrayList<>();
            try {
                for (int i = 0; i < 16; i++) {
                    connections.add(new Socket(InetAddress.getLoopbackAddress(), ports[0]));
                }
                byte[] request = "GET /hello HTTP/1.1\r\nHost: localhost\r\n\r\n".getBytes(StandardCharsets.US_ASCII);
                for (Socket connection : connections) {
                    connection.getOutputStream().write(request);
                }
                for (Socket connection : connections) {
                    connection.setSoTimeout(10_000);
                    byte[] head = connection.getInputStream().readNBytes(12);
                    assertThat(new String(head, StandardCharsets.US_ASCII)).isEqualTo("HTTP/1.1 200");
                }
            } finally {
                for (Socket connection : connections) {
                    connection.close();
                }
            }
            assertThat(get(ports[0], "/api/todos").statusCode()).isEqualTo(200);
            child.signal("TERM");
            assertThat(child.awaitExit()).isZero();

            assertThat(child.output()).doesNotContain(" WARN ", " ERROR ");
        }
    }

    private static HttpResponse<String> get(int port, String path) throws IOException, InterruptedException {
        return CLIENT.send(
                HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + port + path))
                        .build(),
                BodyHandlers.ofString());
    }

    private static int status(int port, String path) {
        try {
            return get(port, path).statusCode();
        } catch (IOException e) {
            return 0;
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException(e);
        }
    }

    /** Whether this process ignores SIGHUP: bit 0 of the {@code SigIgn} mask in {@code /proc/self/status}. */
    private static boolean hangupIgnoredHere() throws IOException {
        for (String line : Files.readAllLines(Path.of("/proc/self/status"))) {
            if (line.startsWith("SigIgn:")) {
                return (Long.parseLong(line.substring("SigIgn:".length()).trim(), 16) & 1) != 0;
            }
        }
        return false;
    }
}
