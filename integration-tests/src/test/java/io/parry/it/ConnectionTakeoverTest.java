package io.parry.it;

import static org.assertj.core.api.Assertions.assertThat;

import io.netty.channel.Channel;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelInboundHandlerAdapter;
import io.parry.http.HttpResponse;
import io.parry.http.HttpStatus;
import io.parry.server.Handler;
import io.parry.server.RequestLog;
import io.parry.server.Server;
import io.parry.transport.spi.ConnectionTakeover;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/** A 101 response hands its connection to a {@link ConnectionTakeover}, over raw sockets. */
class ConnectionTakeoverTest {
    private static final String UPGRADE =
            "GET /echo HTTP/1.1\r\nHost: a\r\nConnection: Upgrade\r\nUpgrade: echo\r\n\r\n";

    private final LinkedBlockingQueue<RequestLog> logs = new LinkedBlockingQueue<>();
    private final EchoTakeover takeover = new EchoTakeover();
    private final Handler handler = (ctx, request) -> switch (request.path()) {
        case "/echo" -> HttpResponse.of(HttpStatus.SWITCHING_PROTOCOLS)
                .withHeader("upgrade", "echo")
                .withBody(takeover)
                .toStage();
        case "/bare101" -> HttpResponse.of(HttpStatus.SWITCHING_PROTOCOLS)
                .withHeader("upgrade", "echo")
                .toStage();
        case "/takeover200" -> HttpResponse.of(HttpStatus.OK).withBody(takeover).toStage();
        default -> HttpResponse.ofText("http " + request.path()).toStage();
    };
    private final Server server = Server.builder()
            .host("127.0.0.1")
            .port(0)
            .handler(handler)
            .listener(logs::add)
            .build()
            .start();

    @AfterEach
    void stopServer() {
        server.stop(Duration.ZERO);
    }

    @Test
    void handsTheConnectionOverAfterThe101WithTheBytesSentAlongTheRequest() throws Exception {
        try (Socket socket = connect()) {
            send(socket, UPGRADE + "early");
            String head = readHead(socket);

            assertThat(head).startsWith("HTTP/1.1 101 Switching Protocols\r\n");
            assertThat(head.toLowerCase()).contains("connection: upgrade\r\n", "upgrade: echo\r\n");
            assertThat(head.toLowerCase()).doesNotContain("content-length", "transfer-encoding");
            assertThat(readText(socket, 5)).isEqualTo("early");
            send(socket, "GET / HTTP/1.1\r\nHost: a\r\n\r\n");
            assertThat(readText(socket, 27)).isEqualTo("GET / HTTP/1.1\r\nHost: a\r\n\r\n");
            RequestLog log = logs.poll(5, TimeUnit.SECONDS);
            assertThat(log.status()).isEqualTo(101);
            assertThat(log.completed()).isTrue();
            assertThat(server.connections()).isEqualTo(1);
        }
    }

    @Test
    void countsATakenOverConnectionUntilItCloses() throws Exception {
        Channel channel;
        try (Socket socket = connect()) {
            send(socket, UPGRADE);
            readHead(socket);
            channel = takeover.taken.get(5, TimeUnit.SECONDS);
            assertThat(server.connections()).isEqualTo(1);
        }
        channel.closeFuture().await(5, TimeUnit.SECONDS);
        CountDownLatch counted = new CountDownLatch(1);
        channel.eventLoop().execute(counted::countDown); // After the close listeners ran.
        counted.await(5, TimeUnit.SECONDS);
        assertThat(server.connections()).isZero();
    }

    @Test
    void keepsTheConnectionHttpWhenTheUpgradeIsDeclined() throws Exception {
        try (Socket socket = connect()) {
            send(socket, UPGRADE.replace("/echo", "/declined") + "GET /next HTTP/1.1\r\nHost: a\r\n\r\n");

            assertThat(readHead(socket)).startsWith("HTTP/1.1 200");
            assertThat(readText(socket, 14)).isEqualTo("http /declined");
            assertThat(readHead(socket)).startsWith("HTTP/1.1 200");
            assertThat(readText(socket, 10)).isEqualTo("http /next");
        }
    }

    @Test
    void refusesA101ToARequestThatDidNotAskForAnUpgrade() throws Exception {
        try (Socket socket = connect()) {
            send(socket, "GET /echo HTTP/1.1\r\nHost: a\r\nUpgrade: echo\r\n\r\n");

            assertThat(readHead(socket)).startsWith("HTTP/1.1 500");
            assertThat(takeover.abandoned.get(5, TimeUnit.SECONDS)).isInstanceOf(IllegalStateException.class);
            assertThat(takeover.taken).isNotDone();
        }
    }

    @Test
    void refusesA101ToAnUpgradeRequestWithABody() throws Exception {
        try (Socket socket = connect()) {
            send(socket, UPGRADE.replace("\r\n\r\n", "\r\nContent-Length: 2\r\n\r\nhi"));

            assertThat(readHead(socket)).startsWith("HTTP/1.1 500");
            assertThat(takeover.abandoned.get(5, TimeUnit.SECONDS)).isInstanceOf(IllegalStateException.class);
        }
    }

    @Test
    void refusesA101WithoutATakeoverAndATakeoverWithoutA101() throws Exception {
        try (Socket socket = connect()) {
            send(socket, UPGRADE.replace("/echo", "/bare101"));
            assertThat(readProblem(socket)).startsWith("HTTP/1.1 500");
            send(socket, UPGRADE.replace("/echo", "/takeover200"));
            assertThat(readProblem(socket)).startsWith("HTTP/1.1 500");
            assertThat(takeover.abandoned.get(5, TimeUnit.SECONDS)).isInstanceOf(IllegalStateException.class);
        }
    }

    @Test
    void asksATakenOverConnectionToDrainWhenTheServerStops() throws Exception {
        try (Socket socket = connect()) {
            send(socket, UPGRADE);
            readHead(socket);
            takeover.taken.get(5, TimeUnit.SECONDS);

            server.stop(Duration.ofSeconds(10));

            assertThat(new String(socket.getInputStream().readAllBytes(), StandardCharsets.US_ASCII))
                    .isEqualTo("bye");
        }
    }

    @Test
    void closesATakenOverConnectionThatOutlivesTheStopDeadline() throws Exception {
        takeover.ignoreDrain = true;
        try (Socket socket = connect()) {
            send(socket, UPGRADE);
            readHead(socket);
            takeover.taken.get(5, TimeUnit.SECONDS);

            server.stop(Duration.ofMillis(100));

            assertThat(new String(socket.getInputStream().readAllBytes(), StandardCharsets.US_ASCII))
                    .isEqualTo("last");
        }
    }

    private Socket connect() throws IOException {
        Socket socket = new Socket("127.0.0.1", server.port());
        socket.setSoTimeout(10_000);
        return socket;
    }

    private static void send(Socket socket, String text) throws IOException {
        socket.getOutputStream().write(text.getBytes(StandardCharsets.US_ASCII));
        socket.getOutputStream().flush();
    }

    /** Reads a response head byte by byte, so nothing after it is consumed. */
    private static String readHead(Socket socket) throws IOException {
        InputStream in = socket.getInputStream();
        ByteArrayOutputStream head = new ByteArrayOutputStream();
        while (!head.toString(StandardCharsets.US_ASCII).endsWith("\r\n\r\n")) {
            int b = in.read();
            if (b < 0) {
                throw new IOException("closed after " + head.toString(StandardCharsets.US_ASCII));
            }
            head.write(b);
        }
        return head.toString(StandardCharsets.US_ASCII);
    }

    /** Reads a response head and its problem body, whose length is below 1,000 bytes. */
    private static String readProblem(Socket socket) throws IOException {
        String head = readHead(socket);
        int at = head.indexOf("content-length: ") + "content-length: ".length();
        readText(socket, Integer.parseInt(head.substring(at, at + 3)));
        return head;
    }

    private static String readText(Socket socket, int length) throws IOException {
        return new String(socket.getInputStream().readNBytes(length), StandardCharsets.US_ASCII);
    }

    /** Echoes every byte; says "bye" and closes when the server drains, "last" when it is forced to close. */
    private static final class EchoTakeover implements ConnectionTakeover {
        final CompletableFuture<Channel> taken = new CompletableFuture<>();
        final CompletableFuture<Throwable> abandoned = new CompletableFuture<>();
        volatile boolean ignoreDrain;
        private Channel channel;

        @Override
        public void takeOver(Channel channel) {
            this.channel = channel;
            channel.pipeline().addLast(new ChannelInboundHandlerAdapter() {
                @Override
                public void channelRead(ChannelHandlerContext ctx, Object msg) {
                    ctx.writeAndFlush(msg);
                }
            });
            taken.complete(channel);
        }

        @Override
        public void abandoned(Throwable cause) {
            abandoned.complete(cause);
        }

        @Override
        public void drain() {
            if (!ignoreDrain) {
                channel.writeAndFlush(io.netty.buffer.Unpooled.copiedBuffer("bye", StandardCharsets.US_ASCII))
                        .addListener(io.netty.channel.ChannelFutureListener.CLOSE);
            }
        }

        @Override
        public void forceClose(Channel channel) {
            channel.writeAndFlush(io.netty.buffer.Unpooled.copiedBuffer("last", StandardCharsets.US_ASCII))
                    .addListener(io.netty.channel.ChannelFutureListener.CLOSE);
        }
    }
}
