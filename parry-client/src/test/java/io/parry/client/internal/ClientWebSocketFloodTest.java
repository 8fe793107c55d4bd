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
import io.parry.testing.RawHandshake;
import io.parry.testing.WebSocketUpstream;
import java.net.InetSocketAddress;
import java.net.StandardSocketOptions;
import java.nio.channels.ServerSocketChannel;
import java.nio.channels.SocketChannel;
import java.time.Duration;
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
                RawHandshake.accept(peer);
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

    private static <T> T await(CompletionStage<T> stage) {
        return stage.toCompletableFuture().orTimeout(10, TimeUnit.SECONDS).join();
    }
}
