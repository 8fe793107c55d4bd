package io.parry.proxy;

import static io.parry.proxy.ProxyFailuresTest.awaitTrue;
import static org.assertj.core.api.Assertions.assertThat;

import io.parry.client.Endpoint;
import io.parry.client.upstream.EndpointStatus;
import io.parry.client.upstream.Upstream;
import io.parry.testing.ServerExtension;
import io.parry.testing.WebSocketUpstream;
import java.io.IOException;
import java.io.InputStream;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * A proxied WebSocket session its client breaks is the client's ending: the upstream answered {@code
 * 101} and the breaker heard a success then, so a reset, a close without a close frame, a half-close
 * or an over-size frame, repeated far beyond the default breaker's thresholds (10 calls, 50 %) and
 * outlier ejection's (5 in a row), leaves the breaker closed and the endpoint in rotation, closes the
 * upstream's side of every session, and lets the next client in.
 */
class WebSocketClientEndingsTest {
    private static final int ENDINGS = 30;
    private static final int MAX_FRAME = 1024;
    private static final String HANDSHAKE = "GET /chat HTTP/1.1\r\nHost: h\r\nUpgrade: websocket\r\n"
            + "Connection: Upgrade\r\nSec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\nSec-WebSocket-Version: 13\r\n\r\n";

    private static final SwappableHandler handler = new SwappableHandler();

    @RegisterExtension
    static final ServerExtension gateway = ServerExtension.of(handler);

    private final RecordingObserver observer = new RecordingObserver();
    private final AtomicInteger opened = new AtomicInteger();
    private WebSocketUpstream upstream;
    private GuardedUpstream group;
    private Endpoint endpoint;

    @BeforeEach
    void proxy() {
        upstream = WebSocketUpstream.start();
        endpoint = Endpoint.of("127.0.0.1", upstream.port());
        group = GuardedUpstream.builder(Upstream.of("ws", endpoint))
                .observer(new ProxyObserver() {
                    @Override
                    public void attemptEnded(
                            String upstream, Endpoint endpoint, int status, Throwable failure, long nanos) {
                        observer.attemptEnded(upstream, endpoint, status, failure, nanos);
                    }

                    @Override
                    public void webSocketOpened(String upstream, Endpoint endpoint, String route) {
                        opened.incrementAndGet();
                    }
                })
                .build();
        handler.set(ProxyHandler.builder(group)
                .webSocket(
                        WebSocketProxyOptions.builder().maxFrameSize(MAX_FRAME).build())
                .build());
    }

    @AfterEach
    void stopUpstream() {
        group.close();
        upstream.close();
    }

    @Test
    void keepsBreakerClosedWhenClientsResetTheirSessions() throws Exception {
        for (int i = 0; i < ENDINGS; i++) {
            Socket socket = openSession();
            socket.setSoLinger(true, 0); // The close sends a reset.
            socket.close();
        }

        assertUpstreamUntouched();
    }

    @Test
    void keepsBreakerClosedWhenClientsCloseWithoutACloseFrame() throws Exception {
        for (int i = 0; i < ENDINGS; i++) {
            openSession().close();
        }

        assertUpstreamUntouched();
    }

    @Test
    void keepsBreakerClosedWhenClientsHalfCloseTheirSessions() throws Exception {
        for (int i = 0; i < ENDINGS; i++) {
            try (Socket socket = openSession()) {
                socket.shutdownOutput();
                socket.getInputStream().readAllBytes(); // Until the proxy closes the connection.
            }
        }

        assertUpstreamUntouched();
    }

    @Test
    void keepsBreakerClosedWhenClientsSendOverSizeFrames() throws Exception {
        for (int i = 0; i < ENDINGS; i++) {
            try (Socket socket = openSession()) {
                // The header alone: the decoder refuses the frame by its length, and no unread payload
                // turns the proxy's close into a reset that could overtake its close frame.
                byte[] frame = maskedBinaryFrame(MAX_FRAME * 2);
                socket.getOutputStream().write(frame, 0, 8);
                byte[] answer = socket.getInputStream().readAllBytes();
                assertThat(answer[0] & 0xFF).as("a close frame").isEqualTo(0x88);
                assertThat(((answer[2] & 0xFF) << 8) | (answer[3] & 0xFF)).isEqualTo(1009);
            }
        }

        assertUpstreamUntouched();
    }

    /** The breaker closed, no failure counted on the endpoint or told as an attempt, and a new session served. */
    private void assertUpstreamUntouched() throws Exception {
        awaitTrue(() -> group.webSocketSessions() == 0);
        awaitTrue(() -> upstream.openSessions() == 0);
        assertThat(opened.get()).isEqualTo(ENDINGS);
        assertThat(group.breakerState(endpoint)).isEqualTo(BreakerState.CLOSED);
        EndpointStatus status = group.upstream().status().get(0);
        assertThat(status.healthy()).isTrue();
        assertThat(status.ejected()).isFalse();
        assertThat(status.consecutiveFailures()).isZero();
        assertThat(observer.failedAttempts()).isZero();
        try (Socket socket = openSession()) {
            socket.getOutputStream().write(maskedTextFrame("still served"));
            byte[] echo = socket.getInputStream().readNBytes(2 + "still served".length());
            assertThat(new String(echo, 2, echo.length - 2, StandardCharsets.UTF_8))
                    .isEqualTo("still served");
        }
    }

    /** A raw connection to the gateway whose handshake was answered {@code 101}. */
    private static Socket openSession() throws IOException {
        Socket socket = new Socket("127.0.0.1", gateway.port());
        socket.setSoTimeout(10_000);
        socket.getOutputStream().write(HANDSHAKE.getBytes(StandardCharsets.ISO_8859_1));
        String head = readHead(socket.getInputStream());
        assertThat(head).startsWith("HTTP/1.1 101 ");
        return socket;
    }

    private static String readHead(InputStream in) throws IOException {
        StringBuilder head = new StringBuilder();
        while (head.indexOf("\r\n\r\n") < 0) {
            int b = in.read();
            if (b < 0) {
                break;
            }
            head.append((char) b);
        }
        return head.toString();
    }

    private static byte[] maskedTextFrame(String text) {
        byte[] payload = text.getBytes(StandardCharsets.UTF_8);
        return masked(0x81, payload);
    }

    private static byte[] maskedBinaryFrame(int size) {
        return masked(0x82, new byte[size]);
    }

    /** A final frame of the opcode, masked with a zero key (RFC 6455, section 5.3): the payload as is. */
    private static byte[] masked(int firstByte, byte[] payload) {
        int header = payload.length < 126 ? 2 : 4;
        byte[] frame = new byte[header + 4 + payload.length];
        frame[0] = (byte) firstByte;
        if (payload.length < 126) {
            frame[1] = (byte) (0x80 | payload.length);
        } else {
            frame[1] = (byte) (0x80 | 126);
            frame[2] = (byte) (payload.length >> 8);
            frame[3] = (byte) payload.length;
        }
        System.arraycopy(payload, 0, frame, header + 4, payload.length);
        return frame;
    }
}
