package io.parry.it.websocket;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.parry.http.HttpHeaders;
import io.parry.http.HttpResponse;
import io.parry.http.HttpStatus;
import io.parry.server.RequestLog;
import io.parry.server.Server;
import io.parry.server.routing.Router;
import io.parry.server.websocket.WebSocketClose;
import io.parry.server.websocket.WebSocketEnding;
import io.parry.server.websocket.WebSocketEndpoint;
import io.parry.server.websocket.WebSocketMessage;
import io.parry.server.websocket.WebSocketOptions;
import io.parry.server.websocket.WebSocketSession;
import java.io.ByteArrayOutputStream;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.WebSocket;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.Arrays;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.Flow;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.zip.Deflater;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/** WebSocket endpoints on a real server: the handshake, limits, close paths, backpressure. */
class WebSocketServerTest {
    private static final WebSocketOptions SMALL = WebSocketOptions.builder()
            .maxFrameSize(1024)
            .maxMessageSize(4096)
            .closeTimeout(Duration.ofSeconds(2))
            .build();

    private final LinkedBlockingQueue<RequestLog> logs = new LinkedBlockingQueue<>();
    private final CompletableFuture<WebSocketSession> held = new CompletableFuture<>();
    private final WebSocketEndpoint echo = WebSocketEndpoint.of(SMALL, (ctx, handshake) -> handshake
            .accept(
                    handshake.subprotocols().contains("chat") ? "chat" : null,
                    HttpHeaders.empty(),
                    session -> session.messages().subscribe(new Echo(session)))
            .toStage());
    private final WebSocketEndpoint hold = WebSocketEndpoint.of(
            SMALL, (ctx, handshake) -> handshake.accept(held::complete).toStage());
    private final WebSocketEndpoint closer = WebSocketEndpoint.of(SMALL, (ctx, handshake) -> handshake
            .accept(session -> session.close(4000, "bye"))
            .toStage());
    private final WebSocketEndpoint impatientCloser = WebSocketEndpoint.of(
            SMALL.toBuilder().closeTimeout(Duration.ofMillis(300)).build(),
            (ctx, handshake) ->
                    handshake.accept(session -> session.close(4000, "bye")).toStage());
    private final WebSocketEndpoint idle = WebSocketEndpoint.of(
            SMALL.toBuilder().idleTimeout(Duration.ofMillis(200)).build(),
            (ctx, handshake) -> handshake.accept(held::complete).toStage());
    private final WebSocketEndpoint keepAlive = WebSocketEndpoint.of(
            SMALL.toBuilder().pingInterval(Duration.ofMillis(100)).build(),
            (ctx, handshake) -> handshake.accept(held::complete).toStage());
    private final WebSocketEndpoint originChecked = WebSocketEndpoint.of(
            SMALL.toBuilder().allowedOrigins(Set.of("https://good.example")).build(),
            (ctx, handshake) -> handshake.accept(held::complete).toStage());
    private final WebSocketEndpoint refusing =
            WebSocketEndpoint.of((ctx, handshake) -> HttpResponse.of(HttpStatus.UNAUTHORIZED)
                    .withHeader("www-authenticate", "Bearer")
                    .toStage());
    private final Server server = Server.builder()
            .host("127.0.0.1")
            .port(0)
            .handler(Router.builder()
                    .filter((next, ctx, request) ->
                            next.handle(ctx, request).thenApply(response -> response.withHeader("x-filtered", "yes")))
                    .get("/echo", echo)
                    .get("/hold", hold)
                    .get("/closer", closer)
                    .get("/impatient-closer", impatientCloser)
                    .get("/idle", idle)
                    .get("/keepalive", keepAlive)
                    .get("/origin", originChecked)
                    .get("/refusing", refusing)
                    .build())
            .listener(logs::add)
            .build()
            .start();

    @AfterEach
    void stopServer() {
        server.stop(Duration.ofSeconds(1));
    }

    @Test
    void echoesTextAndBinaryThroughTheRouterItsFiltersAndTheAccessLog() throws Exception {
        Client client = Client.connect(uri("/echo"));
        client.socket.sendText("hello", true).join();
        assertThat(client.next()).isEqualTo("text:hello");
        client.socket.sendBinary(ByteBuffer.wrap(new byte[] {1, 2, 3}), true).join();
        assertThat(client.next()).isEqualTo("binary:[1, 2, 3]");

        RequestLog log = logs.poll(5, TimeUnit.SECONDS);
        assertThat(log.status()).isEqualTo(101);
        assertThat(log.route()).isEqualTo("/echo");
        client.socket.sendClose(WebSocket.NORMAL_CLOSURE, "").join();
        assertThat(client.closed.get(5, TimeUnit.SECONDS)).isEqualTo(1000);
        assertThat(echo.counters().messagesIn()).isEqualTo(2);
    }

    @Test
    void appliesFiltersToTheHandshakeAndAgreesOnAnOfferedSubprotocol() throws Exception {
        try (RawWebSocket socket =
                RawWebSocket.open(server.port(), "/echo", "Sec-WebSocket-Protocol: other, chat\r\n")) {
            assertThat(socket.status()).isEqualTo(101);
            assertThat(socket.responseHead.toLowerCase())
                    .contains(
                            "sec-websocket-accept: s3pplmbitxaq9kygzzhzrbk+xoo=\r\n",
                            "sec-websocket-protocol: chat\r\n",
                            "x-filtered: yes\r\n");
        }
    }

    @Test
    void answersARequestThatIsNotAHandshakeWith426() throws Exception {
        HttpClient client = HttpClient.newHttpClient();
        java.net.http.HttpResponse<String> response = client.send(
                java.net.http.HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + server.port() + "/echo"))
                        .build(),
                java.net.http.HttpResponse.BodyHandlers.ofString());

        assertThat(response.statusCode()).isEqualTo(426);
        assertThat(response.headers().firstValue("upgrade")).hasValue("websocket");
        assertThat(echo.counters().refused()).isEqualTo(1);
    }

    @Test
    void refusesAForeignOriginWith403() throws Exception {
        try (RawWebSocket foreign = RawWebSocket.open(server.port(), "/origin", "Origin: https://evil.example\r\n");
                RawWebSocket good = RawWebSocket.open(server.port(), "/origin", "Origin: https://good.example\r\n")) {
            assertThat(foreign.status()).isEqualTo(403);
            assertThat(good.status()).isEqualTo(101);
            assertThat(originChecked.counters().refused()).isEqualTo(1);
        }
    }

    @Test
    void letsTheApplicationRefuseTheUpgradeWithItsStatusAndHeaders() throws Exception {
        try (RawWebSocket socket = RawWebSocket.open(server.port(), "/refusing", "")) {
            assertThat(socket.status()).isEqualTo(401);
            assertThat(socket.responseHead.toLowerCase()).contains("www-authenticate: bearer\r\n");
        }
    }

    @Test
    void closesWith1009WhenAFrameIsTooBig() throws Exception {
        try (RawWebSocket socket = RawWebSocket.open(server.port(), "/echo", "")) {
            socket.send(true, 0, RawWebSocket.BINARY, new byte[1025]);
            assertThat(socket.readCloseCode()).isEqualTo(1009);
        }
        assertThat(awaitEnding(echo, WebSocketEnding.TOO_BIG)).isEqualTo(1);
    }

    @Test
    void closesWith1009WhenAFragmentedMessageIsTooBig() throws Exception {
        try (RawWebSocket socket = RawWebSocket.open(server.port(), "/echo", "")) {
            socket.send(false, 0, RawWebSocket.BINARY, new byte[1024]);
            for (int i = 0; i < 3; i++) {
                socket.send(false, 0, RawWebSocket.CONTINUATION, new byte[1024]);
            }
            socket.send(true, 0, RawWebSocket.CONTINUATION, new byte[1]);
            assertThat(socket.readCloseCode()).isEqualTo(1009);
        }
    }

    @Test
    void closesWith1009WhenACompressedMessageInflatesPastTheLimit() throws Exception {
        byte[] bomb = deflate(new byte[10 * 1024 * 1024]);
        try (RawWebSocket socket =
                RawWebSocket.open(server.port(), "/echo", "Sec-WebSocket-Extensions: permessage-deflate\r\n")) {
            assertThat(socket.responseHead).contains("permessage-deflate");
            socket.send(true, 4, RawWebSocket.BINARY, bomb);
            assertThat(socket.readCloseCode()).isEqualTo(1009);
        }
        assertThat(bomb.length).isLessThan(1024 * 1024 / 50);
        assertThat(awaitEnding(echo, WebSocketEnding.TOO_BIG)).isEqualTo(1);
    }

    @Test
    void echoesACompressedMessageCompressed() throws Exception {
        try (RawWebSocket socket =
                RawWebSocket.open(server.port(), "/echo", "Sec-WebSocket-Extensions: permessage-deflate\r\n")) {
            socket.send(true, 4, RawWebSocket.TEXT, deflate("hello hello hello".getBytes(StandardCharsets.UTF_8)));
            RawWebSocket.Frame echoed = socket.read();
            assertThat(echoed.rsv()).isEqualTo(4);
            assertThat(new String(inflate(echoed.payload()), StandardCharsets.UTF_8))
                    .isEqualTo("hello hello hello");
        }
    }

    @Test
    void closesWith1007OnTextThatIsNotUtf8() throws Exception {
        try (RawWebSocket socket = RawWebSocket.open(server.port(), "/echo", "")) {
            socket.send(true, 0, RawWebSocket.TEXT, new byte[] {'a', (byte) 0xC0, (byte) 0xAF});
            assertThat(socket.readCloseCode()).isEqualTo(1007);
        }
        assertThat(awaitEnding(echo, WebSocketEnding.INVALID_UTF8)).isEqualTo(1);
    }

    @Test
    void closesWith1002OnAProtocolViolation() throws Exception {
        try (RawWebSocket socket = RawWebSocket.open(server.port(), "/echo", "")) {
            socket.send(true, 0, 3, new byte[0]); // A reserved opcode.
            assertThat(socket.readCloseCode()).isEqualTo(1002);
            assertThat(socket.isClosedByServer()).isTrue();
        }
        assertThat(awaitEnding(echo, WebSocketEnding.PROTOCOL_ERROR)).isEqualTo(1);
    }

    @Test
    void answersPingsWithPongs() throws Exception {
        try (RawWebSocket socket = RawWebSocket.open(server.port(), "/echo", "")) {
            socket.send(true, 0, RawWebSocket.PING, new byte[] {7, 8});
            RawWebSocket.Frame pong = socket.read();
            assertThat(pong.opcode()).isEqualTo(RawWebSocket.PONG);
            assertThat(pong.payload()).containsExactly(7, 8);
        }
    }

    @Test
    void endsTheSessionWhenTheClientCloses() throws Exception {
        try (RawWebSocket socket = RawWebSocket.open(server.port(), "/hold", "")) {
            WebSocketSession session = held.get(5, TimeUnit.SECONDS);
            Collector messages = new Collector(Long.MAX_VALUE);
            session.messages().subscribe(messages);
            socket.sendText("last").sendClose(1000);

            assertThat(socket.readCloseCode()).isEqualTo(1000);
            assertThat(socket.isClosedByServer()).isTrue();
            assertThat(session.closed().toCompletableFuture().get(5, TimeUnit.SECONDS))
                    .isEqualTo(new WebSocketClose(1000, "", true));
            assertThat(messages.done.get(5, TimeUnit.SECONDS)).isNull();
            assertThat(messages.received).containsExactly("last");
        }
        assertThat(awaitEnding(hold, WebSocketEnding.CLIENT_CLOSED)).isEqualTo(1);
    }

    @Test
    void sendsTheApplicationsCloseCode() throws Exception {
        Client client = Client.connect(uri("/closer"));
        assertThat(client.closed.get(5, TimeUnit.SECONDS)).isEqualTo(4000);
        assertThat(client.closeReason).isEqualTo("bye");
        awaitEnding(closer, WebSocketEnding.SERVER_CLOSED);
        assertThat(closer.counters().endings(WebSocketEnding.SERVER_CLOSED))
                .as(Arrays.stream(WebSocketEnding.values())
                        .map(e -> e + "=" + closer.counters().endings(e))
                        .toList()
                        .toString())
                .isEqualTo(1);
    }

    @Test
    void closesTheConnectionWhenTheClientDoesNotAnswerTheClose() throws Exception {
        try (RawWebSocket socket = RawWebSocket.open(server.port(), "/impatient-closer", "")) {
            assertThat(socket.readCloseCode()).isEqualTo(4000);
            assertThat(socket.isClosedByServer()).isTrue();
        }
        assertThat(awaitEnding(impatientCloser, WebSocketEnding.CLOSE_TIMEOUT)).isEqualTo(1);
    }

    @Test
    void endsTheSessionWith1006WhenTheConnectionBreaks() throws Exception {
        WebSocketSession session;
        Collector messages = new Collector(Long.MAX_VALUE);
        try (RawWebSocket socket = RawWebSocket.open(server.port(), "/hold", "")) {
            session = held.get(5, TimeUnit.SECONDS);
            session.messages().subscribe(messages);
        }
        assertThat(session.closed()
                        .toCompletableFuture()
                        .get(5, TimeUnit.SECONDS)
                        .code())
                .isEqualTo(1006);
        assertThat(messages.done.get(5, TimeUnit.SECONDS)).isNotNull();
        assertThat(awaitEnding(hold, WebSocketEnding.CONNECTION_LOST)).isEqualTo(1);
        assertThatThrownBy(() -> session.sendText("late").toCompletableFuture().get(5, TimeUnit.SECONDS))
                .hasCauseInstanceOf(IllegalStateException.class);
    }

    @Test
    void closesAnIdleSessionWith1001() throws Exception {
        try (RawWebSocket socket = RawWebSocket.open(server.port(), "/idle", "")) {
            assertThat(socket.readCloseCode()).isEqualTo(1001);
        }
        assertThat(awaitEnding(idle, WebSocketEnding.IDLE_TIMEOUT)).isEqualTo(1);
    }

    @Test
    void pingsAQuietClient() throws Exception {
        try (RawWebSocket socket = RawWebSocket.open(server.port(), "/keepalive", "")) {
            assertThat(socket.read().opcode()).isEqualTo(RawWebSocket.PING);
        }
    }

    @Test
    void stopsReadingTheSocketWhileTheApplicationAsksForNoMessages() throws Exception {
        int messages = 20_000;
        try (RawWebSocket socket = RawWebSocket.open(server.port(), "/hold", "")) {
            WebSocketSession session = held.get(5, TimeUnit.SECONDS);
            Collector slow = new Collector(1);
            session.messages().subscribe(slow);
            CompletableFuture<Void> sent = CompletableFuture.runAsync(() -> {
                byte[] payload = new byte[1024];
                try {
                    for (int i = 0; i < messages; i++) {
                        socket.send(true, 0, RawWebSocket.BINARY, payload);
                    }
                } catch (java.io.IOException e) {
                    throw new java.io.UncheckedIOException(e);
                }
            });

            // 20 MiB cannot all fit in the sockets' buffers while the server reads nothing.
            assertThatThrownBy(() -> sent.get(2, TimeUnit.SECONDS)).isInstanceOf(TimeoutException.class);
            long readWhilePaused = hold.counters().messagesIn();
            assertThat(readWhilePaused).isLessThan(messages / 10);
            slow.subscription.request(Long.MAX_VALUE);
            assertThat(slow.received.poll(5, TimeUnit.SECONDS)).isNotNull();
            long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(10);
            while (hold.counters().messagesIn() < readWhilePaused + 100 && System.nanoTime() < deadline) {
                Thread.onSpinWait();
            }
            assertThat(hold.counters().messagesIn())
                    .as("reading resumed")
                    .isGreaterThanOrEqualTo(readWhilePaused + 100);
        }
    }

    @Test
    void sendsGoingAwayToEverySessionWhenTheServerStops() throws Exception {
        try (RawWebSocket first = RawWebSocket.open(server.port(), "/echo", "");
                RawWebSocket second = RawWebSocket.open(server.port(), "/echo", "")) {
            awaitOpen(echo, 2);
            CompletableFuture<Void> stopped = CompletableFuture.runAsync(() -> server.stop(Duration.ofSeconds(20)));

            assertThat(first.readCloseCode()).isEqualTo(1001);
            assertThat(second.readCloseCode()).isEqualTo(1001);
            first.sendClose(1001);
            second.sendClose(1001);
            stopped.get(10, TimeUnit.SECONDS); // Long before the 20 s deadline: both answered.
        }
        assertThat(echo.counters().endings(WebSocketEnding.SHUTDOWN)).isEqualTo(2);
    }

    private URI uri(String path) {
        return URI.create("ws://127.0.0.1:" + server.port() + path);
    }

    private static long awaitEnding(WebSocketEndpoint endpoint, WebSocketEnding ending) {
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(5);
        while (endpoint.counters().endings(ending) == 0 && System.nanoTime() < deadline) {
            Thread.onSpinWait();
        }
        return endpoint.counters().endings(ending);
    }

    private static void awaitOpen(WebSocketEndpoint endpoint, long open) {
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(5);
        while (endpoint.counters().open() < open && System.nanoTime() < deadline) {
            Thread.onSpinWait();
        }
    }

    /** Raw DEFLATE with the sync flush's tail removed, as RFC 7692, section 7.2.1 sends a message. */
    private static byte[] deflate(byte[] data) {
        Deflater deflater = new Deflater(Deflater.BEST_COMPRESSION, true);
        deflater.setInput(data);
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        byte[] buffer = new byte[8192];
        int n;
        while ((n = deflater.deflate(buffer, 0, buffer.length, Deflater.SYNC_FLUSH)) > 0) {
            out.write(buffer, 0, n);
        }
        deflater.end();
        byte[] all = out.toByteArray();
        return Arrays.copyOf(all, all.length - 4);
    }

    private static byte[] inflate(byte[] message) throws Exception {
        java.util.zip.Inflater inflater = new java.util.zip.Inflater(true);
        byte[] input = Arrays.copyOf(message, message.length + 4);
        input[input.length - 2] = (byte) 0xFF;
        input[input.length - 1] = (byte) 0xFF;
        inflater.setInput(input);
        byte[] out = new byte[1024];
        int n = inflater.inflate(out);
        inflater.end();
        return Arrays.copyOf(out, n);
    }

    /** Echoes each message once the previous echo was written. */
    private static final class Echo implements Flow.Subscriber<WebSocketMessage> {
        private final WebSocketSession session;
        private Flow.Subscription subscription;

        Echo(WebSocketSession session) {
            this.session = session;
        }

        @Override
        public void onSubscribe(Flow.Subscription subscription) {
            this.subscription = subscription;
            subscription.request(1);
        }

        @Override
        public void onNext(WebSocketMessage message) {
            session.send(message).thenRun(() -> subscription.request(1));
        }

        @Override
        public void onError(Throwable failure) {}

        @Override
        public void onComplete() {}
    }

    /** Keeps the text of what it receives, asking for {@code initial} messages at first. */
    private static final class Collector implements Flow.Subscriber<WebSocketMessage> {
        final LinkedBlockingQueue<String> received = new LinkedBlockingQueue<>();
        final CompletableFuture<Throwable> done = new CompletableFuture<>();
        private final long initial;
        volatile Flow.Subscription subscription;

        Collector(long initial) {
            this.initial = initial;
        }

        @Override
        public void onSubscribe(Flow.Subscription subscription) {
            this.subscription = subscription;
            subscription.request(initial);
        }

        @Override
        public void onNext(WebSocketMessage message) {
            received.add(message.isText() ? message.text() : "binary");
        }

        @Override
        public void onError(Throwable failure) {
            done.complete(failure);
        }

        @Override
        public void onComplete() {
            done.complete(null);
        }
    }

    /** The JDK's WebSocket client, its messages in a queue. */
    private static final class Client implements WebSocket.Listener {
        final LinkedBlockingQueue<String> messages = new LinkedBlockingQueue<>();
        final CompletableFuture<Integer> closed = new CompletableFuture<>();
        volatile String closeReason;
        WebSocket socket;

        static Client connect(URI uri) {
            Client client = new Client();
            client.socket = HttpClient.newHttpClient()
                    .newWebSocketBuilder()
                    .buildAsync(uri, client)
                    .join();
            return client;
        }

        String next() throws InterruptedException {
            return messages.poll(5, TimeUnit.SECONDS);
        }

        @Override
        public CompletionStage<?> onText(WebSocket webSocket, CharSequence data, boolean last) {
            messages.add("text:" + data);
            webSocket.request(1);
            return null;
        }

        @Override
        public CompletionStage<?> onBinary(WebSocket webSocket, ByteBuffer data, boolean last) {
            byte[] bytes = new byte[data.remaining()];
            data.get(bytes);
            messages.add("binary:" + Arrays.toString(bytes));
            webSocket.request(1);
            return null;
        }

        @Override
        public CompletionStage<?> onClose(WebSocket webSocket, int statusCode, String reason) {
            closeReason = reason;
            closed.complete(statusCode);
            return null;
        }

        @Override
        public void onError(WebSocket webSocket, Throwable error) {
            closed.completeExceptionally(error);
        }
    }
}
