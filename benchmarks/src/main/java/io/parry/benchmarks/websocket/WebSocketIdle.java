package io.parry.benchmarks.websocket;

import io.parry.benchmarks.Env;
import io.parry.client.ClientOptions;
import io.parry.client.Endpoint;
import io.parry.client.HttpClient;
import io.parry.client.WebSocket;
import io.parry.client.WebSocketClient;
import java.io.IOException;
import java.io.OutputStream;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;

/**
 * Opens {@code SESSIONS} WebSocket sessions (10,000) to {@code PORT}, each used by one echoed message,
 * prints {@code READY}, and holds them idle until standard input closes or {@code HOLD_SECONDS} (120)
 * pass. For {@code benchmarks/ws-idle.sh}, which measures the server's heap and RSS meanwhile.
 */
public final class WebSocketIdle {
    private static final int BATCH = 200;

    private WebSocketIdle() {}

    public static void main(String[] args) throws Exception {
        int port = Env.intValue("PORT", 8102);
        int count = Env.intValue("SESSIONS", 10_000);
        long holdSeconds = Env.longValue("HOLD_SECONDS", 120);
        String path = System.getenv().getOrDefault("WS_PATH", "/ws/echo");
        try (HttpClient http = HttpClient.builder()
                .options(ClientOptions.builder().eventLoopThreads(2).build())
                .build()) {
            WebSocketClient client = WebSocketClient.of(http);
            List<WebSocket> sockets = new ArrayList<>(count);
            long start = System.nanoTime();
            for (int opened = 0; opened < count; opened += BATCH) {
                List<CompletableFuture<WebSocket>> batch = new ArrayList<>(BATCH);
                for (int i = opened; i < Math.min(count, opened + BATCH); i++) {
                    batch.add(
                            client.connect(Endpoint.of("127.0.0.1", port), path).toCompletableFuture());
                }
                for (CompletableFuture<WebSocket> socket : batch) {
                    WebSocket open = socket.get(30, TimeUnit.SECONDS);
                    open.sendText("used").toCompletableFuture().get(10, TimeUnit.SECONDS);
                    sockets.add(open);
                }
            }
            System.out.printf(
                    "READY %d idle WebSocket sessions to port %d (opened in %d ms)%n",
                    count, port, TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - start));
            CompletableFuture<Void> stdinClosed = CompletableFuture.runAsync(() -> {
                try {
                    System.in.transferTo(OutputStream.nullOutputStream());
                } catch (IOException e) {
                    // An unreadable stdin counts as closed.
                }
            });
            try {
                stdinClosed.get(holdSeconds, TimeUnit.SECONDS);
                System.out.println("released: stdin closed");
            } catch (java.util.concurrent.TimeoutException e) {
                System.out.println("released: hold time over");
            }
            for (WebSocket socket : sockets) {
                socket.abort();
            }
        }
    }
}
