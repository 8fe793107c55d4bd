package io.parry.it.tls;

import static io.parry.it.tls.TlsServerTest.CA;
import static io.parry.it.tls.TlsServerTest.DESCRIBE_TLS;
import static io.parry.it.tls.TlsServerTest.LOCALHOST_EC;
import static org.assertj.core.api.Assertions.assertThat;

import io.parry.server.Rejection;
import io.parry.server.Server;
import io.parry.server.TlsOptions;
import io.parry.testing.NettyLeakExtension;
import java.io.IOException;
import java.io.InputStream;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.nio.ByteBuffer;
import java.time.Duration;
import javax.net.ssl.SSLEngine;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * Connections still in their TLS handshake are swept like the others: the handshake timeout bounds the whole
 * handshake, and a graceful stop closes them at once instead of waiting for them until its deadline.
 */
@ExtendWith(NettyLeakExtension.class)
class TlsHandshakeTimeoutTest {
    private static final Duration TIMEOUT = Duration.ofMillis(200);
    /** How long the tests wait for what they expect: far longer than it takes, even on a loaded machine. */
    private static final Duration PATIENCE = Duration.ofSeconds(30);

    private Server server;

    @BeforeEach
    void start() {
        start(TIMEOUT);
    }

    private void start(Duration handshakeTimeout) {
        server = Server.builder()
                .host("127.0.0.1")
                .port(0)
                .handler(DESCRIBE_TLS)
                .options(o -> o.eventLoopThreads(1)
                        .tls(TlsOptions.builder()
                                .certificate(LOCALHOST_EC.tls())
                                .handshakeTimeout(handshakeTimeout)
                                .build()))
                .build()
                .start();
    }

    @AfterEach
    void stop() {
        server.stop(Duration.ofSeconds(1));
    }

    @Test
    void closesAClientThatStopsAfterItsHelloAtTheHandshakeTimeout() throws IOException {
        long start = System.nanoTime();
        try (Socket stalled = new Socket()) {
            stalled.connect(new InetSocketAddress("127.0.0.1", server.port()));
            // Nothing but the handshake timeout closes this connection: its end is the event that proves it, and
            // a read timeout far above the handshake timeout leaves a loaded machine's scheduling out of it.
            stalled.setSoTimeout((int) PATIENCE.toMillis());
            stalled.getOutputStream().write(clientHello());

            // The server answers the hello, then waits for the client's next flight, which never comes.
            drainUntilClosed(stalled.getInputStream());

            assertThat(Duration.ofNanos(System.nanoTime() - start)).isGreaterThanOrEqualTo(TIMEOUT);
        }
        awaitRejections(1);
        assertThat(server.connections()).isZero();
    }

    @Test
    void closesAConnectionStillInItsHandshakeAtOnceWhenTheServerStops() throws IOException {
        server.stop(Duration.ofSeconds(1));
        start(Duration.ofSeconds(30));
        try (Socket silent = new Socket()) {
            silent.connect(new InetSocketAddress("127.0.0.1", server.port()));
            silent.setSoTimeout((int) PATIENCE.toMillis());
            awaitConnections(1);

            // A stop that waited for the connection would take its whole deadline; half of a long one tells the
            // two apart however slowly a loaded machine closes the event loops.
            Duration deadline = PATIENCE;
            long start = System.nanoTime();
            server.stop(deadline);

            assertThat(Duration.ofNanos(System.nanoTime() - start)).isLessThan(deadline.dividedBy(2));
            assertThat(silent.getInputStream().read()).isEqualTo(-1);
        }
    }

    /** The first flight of a real TLS client, from the JDK's engine, to be sent on a plain socket. */
    private static byte[] clientHello() throws IOException {
        SSLEngine engine = CA.clientContext(null).createSSLEngine("localhost", 443);
        engine.setUseClientMode(true);
        ByteBuffer out = ByteBuffer.allocate(engine.getSession().getPacketBufferSize());
        engine.wrap(ByteBuffer.allocate(0), out);
        out.flip();
        byte[] hello = new byte[out.remaining()];
        out.get(hello);
        return hello;
    }

    private static void drainUntilClosed(InputStream in) throws IOException {
        byte[] buffer = new byte[4096];
        while (in.read(buffer) >= 0) {
            // The server's hello, certificate and finished: read and dropped.
        }
    }

    private void awaitConnections(long count) {
        long deadline = System.nanoTime() + PATIENCE.toNanos();
        while (server.connections() < count && System.nanoTime() < deadline) {
            Thread.onSpinWait();
        }
        assertThat(server.connections()).isEqualTo(count);
    }

    private void awaitRejections(long count) {
        long deadline = System.nanoTime() + PATIENCE.toNanos();
        while (server.rejections(Rejection.TLS_HANDSHAKE) < count && System.nanoTime() < deadline) {
            Thread.onSpinWait();
        }
        assertThat(server.rejections(Rejection.TLS_HANDSHAKE)).isEqualTo(count);
    }
}
