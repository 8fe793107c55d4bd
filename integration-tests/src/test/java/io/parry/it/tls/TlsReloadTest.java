package io.parry.it.tls;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.parry.http.HttpResponse;
import io.parry.it.tls.TestCertificates.Authority;
import io.parry.it.tls.TestCertificates.Issued;
import io.parry.it.tls.TestCertificates.KeyKind;
import io.parry.server.Handler;
import io.parry.server.Server;
import io.parry.server.TlsCertificate;
import io.parry.server.TlsOptions;
import io.parry.testing.NettyLeakExtension;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.FileTime;
import java.security.cert.X509Certificate;
import java.time.Duration;
import java.time.Instant;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.io.TempDir;

@ExtendWith(NettyLeakExtension.class)
class TlsReloadTest {
    private static final Authority CA = TestCertificates.authority("Parry Reload CA");

    @TempDir
    Path directory;

    private Server server;
    private long modified = System.currentTimeMillis();

    @AfterEach
    void stop() {
        if (server != null) {
            server.stop(Duration.ofSeconds(1));
        }
    }

    @Test
    void servesANewCertificateToNewConnectionsWhileOpenOnesKeepWorking() throws IOException {
        Issued before = CA.issue(KeyKind.EC, "localhost");
        Issued after = CA.issue(KeyKind.RSA, "localhost");
        start(before);

        try (TlsClient old = connect()) {
            assertThat(old.serverCertificate()).isEqualTo(before.certificate());
            write(after.chainPem(), after.keyPem());

            assertThat(awaitServed(after.certificate())).isEqualTo(after.certificate());
            assertThat(old.get("localhost", "/").status()).isEqualTo(200);
            assertThat(old.serverCertificate()).isEqualTo(before.certificate());
        }
    }

    @Test
    void keepsThePreviousCertificateWhenTheNewFilesDoNotLoad() throws IOException {
        Issued before = CA.issue(KeyKind.EC, "localhost");
        Issued after = CA.issue(KeyKind.EC, "localhost");
        start(before);

        write(before.chainPem(), "-----BEGIN PRIVATE KEY-----\nbroken\n-----END PRIVATE KEY-----\n");
        // Ten reload intervals: the broken pair is seen and refused, and every connection gets the old one.
        long end = System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(200);
        while (System.nanoTime() < end) {
            try (TlsClient client = connect()) {
                assertThat(client.serverCertificate()).isEqualTo(before.certificate());
            }
        }
        write(after.chainPem(), after.keyPem());
        assertThat(awaitServed(after.certificate())).isEqualTo(after.certificate());
    }

    /**
     * Each reload releases the context it replaces, freed when the connection still using it ends: a context left
     * unreleased, or released twice, is reported by the leak detector, at the paranoid level here.
     */
    @Test
    void freesEachReplacedCertificateWithItsLastConnectionAcrossManyReloads() throws IOException {
        Issued[] certificates = {CA.issue(KeyKind.EC, "localhost"), CA.issue(KeyKind.RSA, "localhost")};
        start(certificates[0]);

        for (int reload = 1; reload <= 20; reload++) {
            Issued next = certificates[reload % 2];
            try (TlsClient old = connect()) {
                write(next.chainPem(), next.keyPem());

                assertThat(awaitServed(next.certificate())).isEqualTo(next.certificate());
                assertThat(old.get("localhost", "/").status()).isEqualTo(200);
            }
        }
    }

    /** The leak detector's check after the class is the assertion: the contexts are loaded when the server is built. */
    @Test
    void freesTheContextsOfAServerBuiltButNeverStarted() throws IOException {
        Server unstarted = unstartedServer();

        unstarted.close();
    }

    /** Its stop gave its contexts up: started after it, the server would refuse every handshake. */
    @Test
    void refusesToStartAServerStoppedBeforeItStarted() throws IOException {
        Server stopped = unstartedServer();
        stopped.close();

        assertThatThrownBy(stopped::start)
                .isInstanceOf(IllegalStateException.class)
                .hasMessage("the server was stopped");
    }

    /** A TLS server with a certificate from files, built but not started. */
    private Server unstartedServer() throws IOException {
        Issued issued = CA.issue(KeyKind.EC, "localhost");
        write(issued.chainPem(), issued.keyPem());
        return Server.builder()
                .port(0)
                .handler(Handler.sync((ctx, request) -> HttpResponse.ofText("ok")))
                .options(o -> o.tls(TlsOptions.builder()
                        .certificate(
                                TlsCertificate.ofFiles(directory.resolve("chain.pem"), directory.resolve("key.pem")))
                        .build()))
                .build();
    }

    private void start(Issued certificate) throws IOException {
        write(certificate.chainPem(), certificate.keyPem());
        TlsOptions tls = TlsOptions.builder()
                .certificate(TlsCertificate.ofFiles(directory.resolve("chain.pem"), directory.resolve("key.pem")))
                .reloadInterval(Duration.ofMillis(20))
                .build();
        server = Server.builder()
                .host("127.0.0.1")
                .port(0)
                .handler(Handler.sync((ctx, request) -> HttpResponse.ofText("ok")))
                .options(o -> o.eventLoopThreads(1).tls(tls))
                .build()
                .start();
    }

    /** Writes both files with a modification time later than the last, whatever the clock's resolution. */
    private void write(String chain, String key) throws IOException {
        modified += 10_000;
        for (var file : new Object[][] {{"chain.pem", chain}, {"key.pem", key}}) {
            Path path = directory.resolve((String) file[0]);
            Files.writeString(path, (String) file[1], StandardCharsets.US_ASCII);
            Files.setLastModifiedTime(path, FileTime.from(Instant.ofEpochMilli(modified)));
        }
    }

    private TlsClient connect() throws IOException {
        return TlsClient.connect(CA.clientContext(null), server.port(), "localhost");
    }

    /**
     * Connects until the server serves {@code expected}, for up to 30 seconds (a reload every 20 ms takes far less,
     * even on a loaded machine); the last one served.
     */
    private X509Certificate awaitServed(X509Certificate expected) throws IOException {
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(30);
        X509Certificate served;
        do {
            try (TlsClient client = connect()) {
                served = client.serverCertificate();
                assertThat(client.get("localhost", "/").status()).isEqualTo(200);
            }
        } while (!served.equals(expected) && System.nanoTime() < deadline);
        return served;
    }
}
