package io.parry.it.websocket;

import static org.assertj.core.api.Assertions.assertThat;

import io.parry.server.Server;
import io.parry.server.websocket.WebSocketEndpoint;
import java.io.IOException;
import java.net.InetSocketAddress;
import java.net.StandardSocketOptions;
import java.nio.ByteBuffer;
import java.nio.channels.SelectionKey;
import java.nio.channels.Selector;
import java.nio.channels.SocketChannel;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * A client that sends but never reads must not make its session queue what its frames cause (a pong
 * per ping) without bound: once the client's connection stops taking writes, the server stops reading
 * it, and the client's own writes stall.
 */
class WebSocketSlowReaderTest {
    private static final long FLOOD = 128L << 20;
    /** Far above what the kernel's buffers on both sides and a connection's write watermark hold. */
    private static final long BOUND = 32L << 20;

    private final WebSocketEndpoint held = WebSocketEndpoint.of(
            (ctx, handshake) -> handshake.accept(session -> {}).toStage());
    private final Server server =
            Server.builder().host("127.0.0.1").port(0).handler(held).build().start();

    @AfterEach
    void stopServer() {
        server.stop(Duration.ofSeconds(1));
    }

    @Test
    void stopsReadingAClientThatSendsPingsAndNeverReadsThePongs() throws IOException {
        try (SocketChannel channel = SocketChannel.open();
                Selector selector = Selector.open()) {
            // Small buffers on the client's side, so that what the kernel holds is small beside the bound.
            channel.setOption(StandardSocketOptions.SO_RCVBUF, 64 * 1024);
            channel.setOption(StandardSocketOptions.SO_SNDBUF, 64 * 1024);
            channel.connect(new InetSocketAddress("127.0.0.1", server.port()));
            channel.write(ByteBuffer.wrap(("GET / HTTP/1.1\r\nHost: h\r\nUpgrade: websocket\r\nConnection: Upgrade\r\n"
                            + "Sec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\nSec-WebSocket-Version: 13\r\n\r\n")
                    .getBytes(StandardCharsets.US_ASCII)));
            channel.configureBlocking(false);
            channel.register(selector, SelectionKey.OP_WRITE);

            long sent = 0;
            ByteBuffer pings = pings();
            while (sent < FLOOD && selector.select(2_000) > 0) {
                selector.selectedKeys().clear();
                if (!pings.hasRemaining()) {
                    pings.rewind();
                }
                sent += channel.write(pings);
            }

            assertThat(sent).as("bytes of pings the server took in").isLessThan(BOUND);
        }
    }

    /** Pings of 125 bytes, masked with a zero key (RFC 6455, section 5.3), so the payload goes as is. */
    private static ByteBuffer pings() {
        ByteBuffer buffer = ByteBuffer.allocate(500 * 131);
        while (buffer.hasRemaining()) {
            buffer.put((byte) 0x89).put((byte) (0x80 | 125)).putInt(0).put(new byte[125]);
        }
        return buffer.flip();
    }
}
