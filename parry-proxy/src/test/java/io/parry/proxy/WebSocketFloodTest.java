package io.parry.proxy;

import static org.assertj.core.api.Assertions.assertThat;

import io.parry.client.Endpoint;
import io.parry.client.HttpClient;
import io.parry.client.WebSocket;
import io.parry.client.WebSocketClient;
import io.parry.client.WebSocketMessage;
import io.parry.client.upstream.Upstream;
import io.parry.server.Server;
import io.parry.server.routing.Router;
import io.parry.server.websocket.WebSocketEndpoint;
import io.parry.testing.FrameFlood;
import io.parry.testing.MessageQueue;
import io.parry.testing.RawHandshake;
import io.parry.testing.WebSocketUpstream;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.InetSocketAddress;
import java.net.SocketAddress;
import java.net.StandardSocketOptions;
import java.nio.channels.ServerSocketChannel;
import java.nio.channels.SocketChannel;
import java.time.Duration;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * A peer that floods the relay with frames and never reads, on either side: the relay stops reading it once the other
 * side takes no more (its write buffer past the high water mark), so the flood stalls instead of queueing in the
 * gateway, and the gateway serves other sessions meanwhile. The relay answers no ping itself: pings go through, and the
 * pongs coming back are held to the same rule.
 */
class WebSocketFloodTest {
    /** Far more than what the kernel's buffers along the way hold. */
    private static final long FLOOD = 128L << 20;

    private static final long BOUND = 32L << 20;

    /** A Parry upstream whose sessions ask for no message: it answers pings while its client reads its pongs. */
    private final Server quiet = Server.builder()
            .host("127.0.0.1")
            .port(0)
            .handler(WebSocketEndpoint.of(
                    (ctx, handshake) -> handshake.accept(session -> {}).toStage()))
            .build()
            .start();

    private final WebSocketUpstream echo = WebSocketUpstream.start();
    private final ServerSocketChannel raw = openRawUpstream();
    private final GuardedUpstream toQuiet = group(quiet.port());
    private final GuardedUpstream toEcho = group(echo.port());
    private final GuardedUpstream toRaw = group(((InetSocketAddress) localAddress(raw)).getPort());
    private final Server gateway = Server.builder()
            .host("127.0.0.1")
            .port(0)
            .handler(Router.builder()
                    .get("/quiet", proxy(toQuiet))
                    .get("/echo", proxy(toEcho))
                    .get("/raw", proxy(toRaw))
                    .build())
            .build()
            .start();
    private final HttpClient http = HttpClient.ofDefault();

    @AfterEach
    void stop() throws IOException {
        http.close();
        gateway.stop(Duration.ofSeconds(1));
        toQuiet.close();
        toEcho.close();
        toRaw.close();
        quiet.stop(Duration.ofSeconds(1));
        echo.close();
        raw.close();
    }

    /** Pings the upstream answers with pongs the client never reads, or messages the upstream never asks for. */
    @ParameterizedTest(name = "opcode {0}")
    @ValueSource(ints = {FrameFlood.PING, FrameFlood.BINARY})
    void stopsReadingAClientThatFloodsFramesAndNeverReadsWhileServingAnotherSession(int opcode) throws Exception {
        try (SocketChannel client = openClient()) {
            RawHandshake.open(client, "/quiet");

            long sent = FrameFlood.write(
                    client, FrameFlood.frames(opcode, 125, true), FLOOD, Duration.ofSeconds(1), total -> {});

            assertAnotherSessionIsServed();
            assertThat(sent).as("bytes of frames the gateway took in").isLessThan(BOUND);
        }
    }

    @Test
    void stopsReadingAnUpstreamThatFloodsPingsToAClientThatNeverReadsWhileServingAnotherSession() throws Exception {
        try (SocketChannel client = openClient()) {
            try (SocketChannel upstream = acceptWhileOpening(client)) {
                upstream.setOption(StandardSocketOptions.SO_SNDBUF, 64 * 1024);

                long sent = FrameFlood.write(
                        upstream,
                        FrameFlood.frames(FrameFlood.PING, 125, false),
                        FLOOD,
                        Duration.ofSeconds(1),
                        total -> {});

                assertAnotherSessionIsServed();
                assertThat(sent).as("bytes of pings the gateway took in").isLessThan(BOUND);
            }
        }
    }

    /** The client asks the gateway for {@code /raw}, whose upstream, this test, answers 101. */
    private SocketChannel acceptWhileOpening(SocketChannel client) throws Exception {
        CompletableFuture<String> opened = CompletableFuture.supplyAsync(() -> {
            try {
                return RawHandshake.open(client, "/raw");
            } catch (IOException e) {
                throw new UncheckedIOException(e);
            }
        });
        SocketChannel upstream = raw.accept();
        RawHandshake.accept(upstream);
        assertThat(opened.get(10, TimeUnit.SECONDS)).startsWith("HTTP/1.1 101");
        return upstream;
    }

    private void assertAnotherSessionIsServed() throws InterruptedException {
        WebSocket other = WebSocketClient.of(http)
                .connect(Endpoint.of("127.0.0.1", gateway.port()), "/echo")
                .toCompletableFuture()
                .orTimeout(10, TimeUnit.SECONDS)
                .join();
        MessageQueue<WebSocketMessage> echoed = MessageQueue.of(other.messages());
        other.sendText("still served");
        assertThat(echoed.next().text()).isEqualTo("still served");
    }

    /** Small buffers on the flooding side, so that what its kernel holds is small beside the bound. */
    private SocketChannel openClient() throws IOException {
        SocketChannel client = SocketChannel.open();
        client.setOption(StandardSocketOptions.SO_RCVBUF, 64 * 1024);
        client.setOption(StandardSocketOptions.SO_SNDBUF, 64 * 1024);
        client.connect(new InetSocketAddress("127.0.0.1", gateway.port()));
        return client;
    }

    private static ServerSocketChannel openRawUpstream() {
        try {
            ServerSocketChannel listener = ServerSocketChannel.open();
            listener.setOption(StandardSocketOptions.SO_RCVBUF, 64 * 1024);
            return listener.bind(new InetSocketAddress("127.0.0.1", 0));
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    private static SocketAddress localAddress(ServerSocketChannel listener) {
        try {
            return listener.getLocalAddress();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    private static GuardedUpstream group(int port) {
        return GuardedUpstream.of(Upstream.of("ws", Endpoint.of("127.0.0.1", port)));
    }

    private static ProxyHandler proxy(GuardedUpstream group) {
        return ProxyHandler.builder(group)
                .webSocket(WebSocketProxyOptions.ofDefault())
                .build();
    }
}
