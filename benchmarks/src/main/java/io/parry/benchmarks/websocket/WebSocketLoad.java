package io.parry.benchmarks.websocket;

import io.parry.benchmarks.Env;
import io.parry.client.ClientOptions;
import io.parry.client.Endpoint;
import io.parry.client.HttpClient;
import io.parry.client.WebSocket;
import io.parry.client.WebSocketClient;
import io.parry.client.WebSocketMessage;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.Flow;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.LongAdder;

/**
 * A small WebSocket load client (wrk cannot speak WebSocket): {@code SESSIONS} sessions (64) to {@code
 * PORT} (8101), each sending a binary message of {@code SIZE} bytes (128) and the next as soon as its echo
 * arrives, for {@code WARMUP} then {@code DURATION} seconds (2 and 10); prints the echo round trips per
 * second of the measured part. Runs on {@code THREADS} event loops (2).
 *
 * <pre>{@code
 * PORT=8101 SESSIONS=64 SIZE=128 DURATION=10 java -cp benchmarks/target/parry-benchmarks.jar \
 *     io.parry.benchmarks.websocket.WebSocketLoad
 * }</pre>
 */
public final class WebSocketLoad {
    private WebSocketLoad() {}

    public static void main(String[] args) throws Exception {
        int port = Env.intValue("PORT", 8101);
        int sessions = Env.intValue("SESSIONS", 64);
        byte[] message = new byte[Env.intValue("SIZE", 128)];
        long warmup = Env.longValue("WARMUP", 2);
        long duration = Env.longValue("DURATION", 10);
        String path = System.getenv().getOrDefault("WS_PATH", "/ws/echo");
        LongAdder roundTrips = new LongAdder();
        try (HttpClient http = HttpClient.builder()
                .options(ClientOptions.builder()
                        .eventLoopThreads(Env.intValue("THREADS", 2))
                        .build())
                .build()) {
            WebSocketClient client = WebSocketClient.of(http);
            List<WebSocket> sockets = new ArrayList<>(sessions);
            for (int i = 0; i < sessions; i++) {
                WebSocket socket = client.connect(Endpoint.of("127.0.0.1", port), path)
                        .toCompletableFuture()
                        .get(10, TimeUnit.SECONDS);
                socket.messages().subscribe(new PingPong(socket, message, roundTrips));
                sockets.add(socket);
            }
            TimeUnit.SECONDS.sleep(warmup);
            long before = roundTrips.sum();
            long start = System.nanoTime();
            TimeUnit.SECONDS.sleep(duration);
            long count = roundTrips.sum() - before;
            double seconds = (System.nanoTime() - start) / 1e9;
            System.out.printf(
                    "round trips/s: %.0f (%d sessions, %d-byte messages, %d in %.1f s)%n",
                    count / seconds, sessions, message.length, count, seconds);
            List<CompletableFuture<?>> closes = new ArrayList<>();
            for (WebSocket socket : sockets) {
                socket.close(1000, "");
                closes.add(socket.closed().toCompletableFuture());
            }
            CompletableFuture.allOf(closes.toArray(new CompletableFuture<?>[0])).get(10, TimeUnit.SECONDS);
        }
    }

    /** Sends the first message on subscription and the next on each echo. */
    private static final class PingPong implements Flow.Subscriber<WebSocketMessage> {
        private final WebSocket socket;
        private final byte[] message;
        private final LongAdder roundTrips;

        PingPong(WebSocket socket, byte[] message, LongAdder roundTrips) {
            this.socket = socket;
            this.message = message;
            this.roundTrips = roundTrips;
        }

        @Override
        public void onSubscribe(Flow.Subscription subscription) {
            subscription.request(Long.MAX_VALUE);
            socket.sendBinary(message);
        }

        @Override
        public void onNext(WebSocketMessage item) {
            roundTrips.increment();
            socket.sendBinary(message);
        }

        @Override
        public void onError(Throwable failure) {
            System.err.println("session failed: " + failure);
        }

        @Override
        public void onComplete() {}
    }
}
