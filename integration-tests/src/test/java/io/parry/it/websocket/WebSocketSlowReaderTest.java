package io.parry.it.websocket;

import static org.assertj.core.api.Assertions.assertThat;

import io.parry.http.HttpData;
import io.parry.server.Server;
import io.parry.server.websocket.WebSocketClose;
import io.parry.server.websocket.WebSocketEnding;
import io.parry.server.websocket.WebSocketEndpoint;
import io.parry.server.websocket.WebSocketOptions;
import io.parry.server.websocket.WebSocketSession;
import io.parry.testing.FrameFlood;
import io.parry.testing.RawHandshake;
import java.io.IOException;
import java.net.InetSocketAddress;
import java.net.StandardSocketOptions;
import java.nio.ByteBuffer;
import java.nio.channels.SocketChannel;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * A client that sends but never reads must not make its session queue what its frames cause (a pong
 * per ping) without bound: once the client's connection stops taking writes, the server stops reading
 * it, and the client's own writes stall, while other clients are served. Nor may an application that sends without waiting for its
 * stages queue without bound: past {@code maxSendQueue} the session closes with 1008.
 */
class WebSocketSlowReaderTest {
    private static final long FLOOD = 128L << 20;
    /** Far above what the kernel's buffers on both sides and a connection's write watermark hold. */
    private static final long BOUND = 32L << 20;
    /** 64 MiB sent at once, far above the queue's bound and what the kernel's buffers hold. */
    private static final int FLOOD_MESSAGES = 64;

    private static final int MESSAGE = 1 << 20;
    private static final String HANDSHAKE = "GET / HTTP/1.1\r\nHost: h\r\nUpgrade: websocket\r\nConnection: Upgrade\r\n"
            + "Sec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\nSec-WebSocket-Version: 13\r\n\r\n";

    private final WebSocketEndpoint held = WebSocketEndpoint.of(
            (ctx, handshake) -> handshake.accept(session -> {}).toStage());
    private final Server server =
            Server.builder().host("127.0.0.1").port(0).handler(held).build().start();

    private final CompletableFuture<WebSocketSession> flooding = new CompletableFuture<>();
    private final WebSocketEndpoint flooder = WebSocketEndpoint.of(
            WebSocketOptions.builder().maxSendQueue(1 << 20).build(), (ctx, handshake) -> handshake
                    .accept(session -> {
                        flooding.complete(session);
                        for (int i = 0; i < FLOOD_MESSAGES; i++) {
                            session.sendBinary(HttpData.wrap(new byte[MESSAGE]));
                        }
                    })
                    .toStage());
    private final Server floodServer =
            Server.builder().host("127.0.0.1").port(0).handler(flooder).build().start();

    @AfterEach
    void stopServer() {
        server.stop(Duration.ofSeconds(1));
        floodServer.stop(Duration.ofSeconds(1));
    }

    @Test
    void closesWith1008WhenTheApplicationSendsMoreThanTheQueueHoldsToAClientThatDoesNotRead() throws Exception {
        try (SocketChannel channel = SocketChannel.open()) {
            channel.setOption(StandardSocketOptions.SO_RCVBUF, 64 * 1024);
            channel.connect(new InetSocketAddress("127.0.0.1", floodServer.port()));
            channel.write(ByteBuffer.wrap(HANDSHAKE.getBytes(StandardCharsets.US_ASCII)));

            WebSocketSession session = flooding.get(10, TimeUnit.SECONDS);
            WebSocketClose close = session.closed().toCompletableFuture().get(10, TimeUnit.SECONDS);

            assertThat(close.code()).isEqualTo(WebSocketClose.POLICY_VIOLATION);
            assertThat(flooder.counters().endings(WebSocketEnding.SEND_QUEUE_FULL))
                    .isEqualTo(1);
            assertThat(session.sendText("late").toCompletableFuture())
                    .failsWithin(Duration.ofSeconds(10))
                    .withThrowableThat()
                    .withMessageContaining("closing");
        }
    }

    @Test
    void stopsReadingAClientThatSendsPingsAndNeverReadsThePongsWhileServingAnotherClient() throws IOException {
        try (SocketChannel channel = SocketChannel.open()) {
            // Small buffers on the client's side, so that what the kernel holds is small beside the bound.
            channel.setOption(StandardSocketOptions.SO_RCVBUF, 64 * 1024);
            channel.setOption(StandardSocketOptions.SO_SNDBUF, 64 * 1024);
            channel.connect(new InetSocketAddress("127.0.0.1", server.port()));
            RawHandshake.open(channel, "/");

            long sent = FrameFlood.write(
                    channel, FrameFlood.frames(FrameFlood.PING, 125, true), FLOOD, Duration.ofSeconds(2), total -> {});
            RawWebSocket.Frame pong;
            try (RawWebSocket other = RawWebSocket.open(server.port(), "/", "")) {
                pong = other.send(true, 0, RawWebSocket.PING, new byte[] {1}).read();
            }

            assertThat(sent).as("bytes of pings the server took in").isLessThan(BOUND);
            assertThat(pong.opcode()).as("another client's pong").isEqualTo(RawWebSocket.PONG);
        }
    }
}
