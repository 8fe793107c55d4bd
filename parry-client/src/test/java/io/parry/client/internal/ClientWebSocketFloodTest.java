package io.parry.client.internal;

import static org.assertj.core.api.Assertions.assertThat;

import io.parry.client.ClientOptions;
import io.parry.client.Endpoint;
import io.parry.client.HttpClient;
import io.parry.client.WebSocket;
import io.parry.client.WebSocketClient;
import io.parry.client.WebSocketMessage;
import io.parry.testing.FrameFlood;
import io.parry.testing.MessageQueue;
import io.parry.testing.NettyLeakExtension;
import io.parry.testing.WebSocketUpstream;
import java.io.ByteArrayOutputStream;
import java.net.InetSocketAddress;
import java.net.StandardSocketOptions;
import java.nio.ByteBuffer;
import java.nio.channels.ServerSocketChannel;
import java.nio.channels.SocketChannel;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.time.Duration;
import java.util.Base64;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * A peer that floods a client WebSocket with pings and never reads its pongs: the client stops reading it once its
 * connection takes no more writes, holds no more than about the write buffer's high water mark meanwhile, and serves
 * its other WebSockets on the same event loop.
 */
@ExtendWith(NettyLeakExtension.class)
class ClientWebSocketFloodTest {
    /** Far more than what the kernel's buffers on both sides hold. */
    private static final long FLOOD = 128L << 20;
    /** The high water mark (64 KiB) and a few pongs past it; a pong per ping held would be megabytes. */
    private static final long HELD_BOUND = 128 * 1024;

    private static final String GUID = "258EAFA5-E914-47DA-95CA-C5AB0DC85B11";

    private final HttpClient http = HttpClient.builder()
            .options(ClientOptions.builder().eventLoopThreads(1).build())
            .build();
    private final WebSocketClient client = WebSocketClient.of(http);
    private final WebSocketUpstream echo = WebSocketUpstream.start();

    @AfterEach
    void close() {
        http.close();
        echo.close();
    }

    @Test
    void stopsReadingAPeerThatFloodsPingsAndNeverReadsWhileServingAnotherWebSocket() throws Exception {
        try (ServerSocketChannel listener = ServerSocketChannel.open()) {
            // Small buffers on the flooding side, so that what its kernel holds is small beside the flood.
            listener.setOption(StandardSocketOptions.SO_RCVBUF, 64 * 1024);
            listener.bind(new InetSocketAddress("127.0.0.1", 0));
            int port = ((InetSocketAddress) listener.getLocalAddress()).getPort();
            CompletionStage<WebSocket> connecting = client.connect(Endpoint.of("127.0.0.1", port), "/");
            try (SocketChannel peer = listener.accept()) {
                peer.setOption(StandardSocketOptions.SO_SNDBUF, 64 * 1024);
                acceptHandshake(peer);
                ClientWebSocket flooded = (ClientWebSocket) await(connecting);

                long sent = FrameFlood.write(peer, FrameFlood.pings(false), FLOOD, Duration.ofSeconds(1), total -> {
                    assertThat(flooded.pendingWriteBytes())
                            .as("bytes the client held to write after %d bytes of pings", total)
                            .isLessThan(HELD_BOUND);
                });
                WebSocket other = await(client.connect(Endpoint.of("127.0.0.1", echo.port()), "/echo"));
                MessageQueue<WebSocketMessage> echoed = MessageQueue.of(other.messages());
                await(other.sendText("still served"));

                assertThat(echoed.next().text()).isEqualTo("still served");
                assertThat(sent).as("bytes of pings the client took in").isLessThan(FLOOD);
                assertThat(flooded.pendingWriteBytes()).isLessThan(HELD_BOUND);
            }
        }
    }

    /** Reads the client's opening handshake and answers it with 101 (RFC 6455, section 4.2.2). */
    private static void acceptHandshake(SocketChannel peer) throws Exception {
        ByteArrayOutputStream head = new ByteArrayOutputStream();
        ByteBuffer one = ByteBuffer.allocate(1);
        while (!head.toString(StandardCharsets.US_ASCII).endsWith("\r\n\r\n")) {
            one.clear();
            if (peer.read(one) < 0) {
                throw new AssertionError("the client closed during its handshake");
            }
            head.write(one.get(0));
        }
        String key = head.toString(StandardCharsets.US_ASCII)
                .lines()
                .filter(line -> line.toLowerCase().startsWith("sec-websocket-key:"))
                .findFirst()
                .orElseThrow()
                .substring("sec-websocket-key:".length())
                .trim();
        byte[] digest = MessageDigest.getInstance("SHA-1").digest((key + GUID).getBytes(StandardCharsets.US_ASCII));
        String answer = "HTTP/1.1 101 Switching Protocols\r\nUpgrade: websocket\r\nConnection: Upgrade\r\n"
                + "Sec-WebSocket-Accept: " + Base64.getEncoder().encodeToString(digest) + "\r\n\r\n";
        peer.write(ByteBuffer.wrap(answer.getBytes(StandardCharsets.US_ASCII)));
    }

    private static <T> T await(CompletionStage<T> stage) {
        return stage.toCompletableFuture().orTimeout(10, TimeUnit.SECONDS).join();
    }
}
