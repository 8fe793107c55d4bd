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
import java.util.Locale;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.Flow;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.LongAdder;

/**
 * A small WebSocket load client (wrk cannot speak WebSocket): {@code SESSIONS} sessions (64) to {@code
 * PORT} (8101), each sending a binary message of {@code SIZE} bytes (128) and the next once its echo
 * arrives: at once, or paced so that all sessions together send {@code RATE} messages a second (0, not
 * paced). Runs on {@code THREADS} event loops (2).
 *
 * <p>It warms up in windows of {@code WINDOW} seconds (5) until two in a row agree within {@code
 * TOLERANCE} percent (3), after {@code WARMUP_MIN} (10) and at most {@code WARMUP} seconds (60), then
 * measures {@code DURATION} seconds (10) and prints the round trips per second. Windows compare round
 * trips per second, or, paced, the CPU per round trip of the first {@code CPU_PIDS} group, as the rate
 * is fixed. {@code CPU_PIDS} ({@code name=PID,PID ...}, see {@link ProcessCpu}) names the processes
 * whose CPU time per round trip the measured part reports, the client's own added, with the
 * machine's busy share of its cores.
 *
 * <pre>{@code
 * PORT=8101 SESSIONS=64 SIZE=128 DURATION=10 CPU_PIDS="proxy=4711" java -cp \
 *     benchmarks/target/parry-benchmarks.jar io.parry.benchmarks.websocket.WebSocketLoad
 * }</pre>
 */
public final class WebSocketLoad {
    private WebSocketLoad() {}

    public static void main(String[] args) throws Exception {
        int port = Env.intValue("PORT", 8101);
        int sessions = Env.intValue("SESSIONS", 64);
        byte[] message = new byte[Env.intValue("SIZE", 128)];
        String path = System.getenv().getOrDefault("WS_PATH", "/ws/echo");
        List<ProcessCpu> groups =
                new ArrayList<>(ProcessCpu.parse(System.getenv().getOrDefault("CPU_PIDS", "")));
        groups.add(new ProcessCpu("client", List.of(ProcessHandle.current().pid())));
        LongAdder roundTrips = new LongAdder();
        try (HttpClient http = HttpClient.builder()
                        .options(ClientOptions.builder()
                                .eventLoopThreads(Env.intValue("THREADS", 2))
                                .build())
                        .build();
                Pacer pacer = new Pacer(Env.longValue("RATE", 0))) {
            WebSocketClient client = WebSocketClient.of(http);
            List<WebSocket> sockets = new ArrayList<>(sessions);
            for (int i = 0; i < sessions; i++) {
                WebSocket socket = client.connect(Endpoint.of("127.0.0.1", port), path)
                        .toCompletableFuture()
                        .get(10, TimeUnit.SECONDS);
                socket.messages().subscribe(new PingPong(socket, message, roundTrips, pacer));
                sockets.add(socket);
            }
            boolean paced = Env.longValue("RATE", 0) > 0;
            warmUp(roundTrips, groups.get(0), paced);
            Window measured = Window.measure(roundTrips, groups, Env.longValue("DURATION", 10));
            System.out.printf(
                    "round trips/s: %.0f (%d sessions, %d-byte messages, %d in %.1f s)%n",
                    measured.perSecond(), sessions, message.length, measured.roundTrips(), measured.seconds());
            System.out.println(measured.cpuLine(groups));
            List<CompletableFuture<?>> closes = new ArrayList<>();
            for (WebSocket socket : sockets) {
                socket.close(1000, "");
                closes.add(socket.closed().toCompletableFuture());
            }
            CompletableFuture.allOf(closes.toArray(new CompletableFuture<?>[0])).get(10, TimeUnit.SECONDS);
        }
    }

    /**
     * Measures windows until two in a row agree, as benchmarks/common.sh's warm_up does for wrk: a JVM
     * (this client's, the proxy's, the upstream's) still compiling is slower and noisier than it will be.
     */
    private static void warmUp(LongAdder roundTrips, ProcessCpu watched, boolean paced) throws InterruptedException {
        long bound = Env.longValue("WARMUP", 60);
        long least = Env.longValue("WARMUP_MIN", 10);
        long window = Env.longValue("WINDOW", 5);
        double tolerance = Env.longValue("TOLERANCE", 3) / 100.0;
        double previous = Double.NaN;
        for (long spent = 0; spent < bound; ) {
            long seconds = Math.min(window, bound - spent);
            Window w = Window.measure(roundTrips, List.of(watched), seconds);
            spent += seconds;
            double value = paced ? w.microsPerRoundTrip(0) : w.perSecond();
            System.out.printf(
                    Locale.ROOT,
                    "warm-up %d s: %.0f round trips/s, %s %.1f us CPU per round trip%n",
                    spent,
                    w.perSecond(),
                    watched.name(),
                    w.microsPerRoundTrip(0));
            if (spent >= least && Math.abs(value - previous) <= tolerance * Math.max(value, previous)) {
                System.out.printf(
                        "warm after %d s: the last two windows agree within %.0f%%%n", spent, tolerance * 100);
                return;
            }
            previous = value;
        }
        System.out.printf("warm-up bound of %d s reached before two windows agreed%n", bound);
    }

    /** Sends the first message on subscription and the next on each echo, when the pacer allows. */
    private static final class PingPong implements Flow.Subscriber<WebSocketMessage> {
        private final WebSocket socket;
        private final byte[] message;
        private final LongAdder roundTrips;
        private final Pacer pacer;
        private final Runnable send;

        PingPong(WebSocket socket, byte[] message, LongAdder roundTrips, Pacer pacer) {
            this.socket = socket;
            this.message = message;
            this.roundTrips = roundTrips;
            this.pacer = pacer;
            this.send = () -> socket.sendBinary(message);
        }

        @Override
        public void onSubscribe(Flow.Subscription subscription) {
            subscription.request(Long.MAX_VALUE);
            pacer.next(send);
        }

        @Override
        public void onNext(WebSocketMessage item) {
            roundTrips.increment();
            pacer.next(send);
        }

        @Override
        public void onError(Throwable failure) {
            System.err.println("session failed: " + failure);
        }

        @Override
        public void onComplete() {}
    }
}
