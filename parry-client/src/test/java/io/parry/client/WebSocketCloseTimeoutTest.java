package io.parry.client;

import static io.parry.client.Calls.await;
import static io.parry.client.Calls.failure;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.parry.testing.NettyLeakExtension;
import io.parry.testing.RawHandshake;
import java.io.IOException;
import java.net.InetSocketAddress;
import java.net.StandardSocketOptions;
import java.nio.ByteBuffer;
import java.nio.channels.ServerSocketChannel;
import java.nio.channels.SocketChannel;
import java.time.Duration;
import java.util.concurrent.CompletionStage;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * A raw peer that leaves a client WebSocket's close unfinished, by never reading its answer or by never answering,
 * holds the connection no longer than the close timeout. The client's stages wait 10 seconds, far past the timeout.
 */
@ExtendWith(NettyLeakExtension.class)
class WebSocketCloseTimeoutTest {
    /** Far more than what the kernel's buffers on both sides hold, so the rest stays in the client's own buffer. */
    private static final int FLOOD = 16 << 20;
    /** A close with 1000 and "bye", unmasked as a server's frames are (RFC 6455, section 5.1). */
    private static final byte[] CLOSE = {(byte) 0x88, 5, 0x03, (byte) 0xE8, 'b', 'y', 'e'};

    private final HttpClient http = HttpClient.builder()
            .options(ClientOptions.builder().eventLoopThreads(1).build())
            .build();
    private final WebSocketClient client =
            WebSocketClient.builder(http).closeTimeout(Duration.ofMillis(200)).build();

    @AfterEach
    void close() {
        http.close();
    }

    @Test
    void closesTheSocketWhenAPeerThatClosedNeverReadsTheAnswer() throws Exception {
        try (ServerSocketChannel listener = listen()) {
            CompletionStage<WebSocket> connecting = client.connect(endpoint(listener), "/");
            try (SocketChannel peer = listener.accept()) {
                RawHandshake.accept(peer);
                WebSocket socket = await(connecting);

                CompletionStage<Void> flood = socket.sendBinary(new byte[FLOOD]);
                // A byte of it read shows the flood is in the client's buffer; its read asked for before stays on.
                peer.read(ByteBuffer.allocate(1));
                peer.write(ByteBuffer.wrap(CLOSE));

                assertThat(await(socket.closed())).isEqualTo(new WebSocketClose(1000, "bye"));
                assertThat(failure(flood))
                        .as("the flood, never written in full")
                        .isNotNull();
            }
        }
    }

    @Test
    void closesTheSocketWhenThePeerNeverAnswersTheClientsClose() throws Exception {
        try (ServerSocketChannel listener = listen()) {
            CompletionStage<WebSocket> connecting = client.connect(endpoint(listener), "/");
            try (SocketChannel peer = listener.accept()) {
                RawHandshake.accept(peer);
                WebSocket socket = await(connecting);

                await(socket.close(1000, "done"));

                assertThat(await(socket.closed()).code()).isEqualTo(WebSocketClose.ABNORMAL);
                assertThat(readToEnd(peer))
                        .as("bytes the peer read: the close's frame")
                        .isEqualTo(2 + 4 + 2 + 4);
            }
        }
    }

    @Test
    void rejectsACloseTimeoutThatIsNotPositive() {
        assertThatThrownBy(() -> WebSocketClient.builder(http).closeTimeout(Duration.ZERO))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessage("closeTimeout: PT0S (expected: > 0)");
    }

    /** A listener whose connections take little, so the client's flood fills them soon. */
    private static ServerSocketChannel listen() throws IOException {
        ServerSocketChannel listener = ServerSocketChannel.open();
        listener.setOption(StandardSocketOptions.SO_RCVBUF, 16 * 1024);
        listener.bind(new InetSocketAddress("127.0.0.1", 0));
        return listener;
    }

    private static Endpoint endpoint(ServerSocketChannel listener) throws IOException {
        return Endpoint.of("127.0.0.1", ((InetSocketAddress) listener.getLocalAddress()).getPort());
    }

    private static int readToEnd(SocketChannel peer) throws IOException {
        ByteBuffer buffer = ByteBuffer.allocate(64);
        int total = 0;
        for (int read = peer.read(buffer); read >= 0; read = peer.read(buffer)) {
            total += read;
            buffer.clear();
        }
        return total;
    }
}
