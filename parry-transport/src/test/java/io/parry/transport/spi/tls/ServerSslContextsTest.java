package io.parry.transport.spi.tls;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import io.netty.buffer.ByteBufAllocator;
import io.netty.handler.ssl.ClientAuth;
import io.netty.handler.ssl.OpenSsl;
import io.netty.handler.ssl.OpenSslSessionContext;
import io.netty.handler.ssl.ReferenceCountedOpenSslContext;
import io.netty.handler.ssl.SslContext;
import io.netty.handler.ssl.SslProvider;
import io.netty.util.ReferenceCountUtil;
import io.netty.util.ReferenceCounted;
import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.FileTime;
import java.util.List;
import javax.net.ssl.SSLEngine;
import javax.net.ssl.SSLSessionContext;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * What the server contexts keep per connection and in all (session caches, handshake buffers), and when their native
 * memory is freed.
 */
class ServerSslContextsTest {
    private static final List<String> CIPHERS =
            List.of("TLS_AES_128_GCM_SHA256", "TLS_ECDHE_ECDSA_WITH_AES_128_GCM_SHA256");

    @TempDir
    Path directory;

    @Test
    void turnsTheOpenSslSessionCacheOffWhenTicketsServeResumption() throws IOException {
        assumeTrue(OpenSsl.isAvailable(), "netty-tcnative-boringssl-static did not load");

        try (ServerSslContexts contexts = load(List.of("TLSv1.3", "TLSv1.2"), SslProvider.OPENSSL)) {
            SSLSessionContext sessions = contexts.select(null).context().sessionContext();

            assertThat(sessions).isInstanceOf(OpenSslSessionContext.class);
            assertThat(((OpenSslSessionContext) sessions).isSessionCacheEnabled())
                    .isFalse();
        }
    }

    @Test
    void keepsTheOpenSslSessionCacheForTls12Alone() throws IOException {
        assumeTrue(OpenSsl.isAvailable(), "netty-tcnative-boringssl-static did not load");

        try (ServerSslContexts contexts = load(List.of("TLSv1.2"), SslProvider.OPENSSL)) {
            SSLSessionContext sessions = contexts.select(null).context().sessionContext();

            assertThat(((OpenSslSessionContext) sessions).isSessionCacheEnabled())
                    .isTrue();
        }
    }

    @Test
    void leavesTheJdkProvidersSessionsAsTheyAre() throws IOException {
        try (ServerSslContexts contexts = load(List.of("TLSv1.3", "TLSv1.2"), SslProvider.JDK)) {
            SSLSessionContext sessions = contexts.select(null).context().sessionContext();

            assertThat(sessions).isNotInstanceOf(OpenSslSessionContext.class);
            assertThat(sessions.getSessionCacheSize()).isPositive();
        }
    }

    @Test
    void givesEachOpenSslConnectionAHandshakeBufferOf32Bytes() throws IOException {
        assumeTrue(OpenSsl.isAvailable(), "netty-tcnative-boringssl-static did not load");

        try (ServerSslContexts contexts = load(List.of("TLSv1.3", "TLSv1.2"), SslProvider.OPENSSL)) {
            SslContext context = contexts.select(null).context();

            assertThat(((ReferenceCountedOpenSslContext) context).getBioNonApplicationBufferSize())
                    .isEqualTo(32);
        }
    }

    @Test
    void freesAReplacedOpenSslContextWhenItsLastConnectionEnds() throws IOException {
        assumeTrue(OpenSsl.isAvailable(), "netty-tcnative-boringssl-static did not load");
        try (ServerSslContexts contexts = ServerSslContexts.load(fileSpec())) {
            SslContext replaced = contexts.select(null).context();
            SSLEngine connection = replaced.newEngine(ByteBufAllocator.DEFAULT);

            touchFiles();
            assertThat(contexts.reloadChanged()).isEqualTo(1);

            assertThat(refCnt(replaced)).as("held by its connection").isEqualTo(1);
            ReferenceCountUtil.release(connection);
            assertThat(refCnt(replaced)).as("freed with its last connection").isZero();
            assertThat(refCnt(contexts.select(null).context())).isEqualTo(1);
        }
    }

    @Test
    void givesANewConnectionAReferenceThatOutlivesAReloadUntilItsEngineHoldsItsOwn() throws IOException {
        assumeTrue(OpenSsl.isAvailable(), "netty-tcnative-boringssl-static did not load");
        try (ServerSslContexts contexts = ServerSslContexts.load(fileSpec())) {
            ServerCertificate chosen = contexts.acquire(null);

            touchFiles();
            assertThat(contexts.reloadChanged()).isEqualTo(1);
            assertThat(refCnt(chosen.context())).isEqualTo(1);
            SSLEngine connection = chosen.context().newEngine(ByteBufAllocator.DEFAULT);
            ReferenceCountUtil.release(chosen.context());

            assertThat(refCnt(chosen.context())).isEqualTo(1);
            ReferenceCountUtil.release(connection);
            assertThat(refCnt(chosen.context())).isZero();
            ServerCertificate next = contexts.acquire(null);
            assertThat(next).isNotSameAs(chosen);
            assertThat(refCnt(next.context())).isEqualTo(2);
            ReferenceCountUtil.release(next.context());
        }
    }

    @Test
    void freesItsContextsOnCloseAndGivesNewConnectionsNone() throws IOException {
        assumeTrue(OpenSsl.isAvailable(), "netty-tcnative-boringssl-static did not load");
        ServerSslContexts contexts = ServerSslContexts.load(fileSpec());
        SslContext context = contexts.select(null).context();
        SSLEngine connection = context.newEngine(ByteBufAllocator.DEFAULT);

        contexts.close();

        assertThat(contexts.acquire(null)).isNull();
        assertThat(refCnt(context)).as("held by its connection").isEqualTo(1);
        ReferenceCountUtil.release(connection);
        assertThat(refCnt(context)).isZero();
        touchFiles();
        assertThat(contexts.reloadChanged()).isZero();
        contexts.close();
    }

    private static ServerSslContexts load(List<String> protocols, SslProvider provider) throws IOException {
        CertifiedKey key = new CertifiedKey(pem("tls/cert.pem"), pem("tls/key.pem"));
        return ServerSslContexts.load(
                new ServerTlsSpec(List.of(key), protocols, CIPHERS, ClientAuth.NONE, null, List.of(), provider));
    }

    /** A spec whose certificate and key are files in the test's directory. */
    private ServerTlsSpec fileSpec() throws IOException {
        Path chain = directory.resolve("chain.pem");
        Path key = directory.resolve("key.pem");
        Files.write(chain, pem("tls/cert.pem").read());
        Files.write(key, pem("tls/key.pem").read());
        CertifiedKey files = new CertifiedKey(new PemSource.File(chain), new PemSource.File(key));
        return new ServerTlsSpec(
                List.of(files), List.of("TLSv1.3", "TLSv1.2"), CIPHERS, ClientAuth.NONE, null, List.of(), null);
    }

    /** A later modification time on both files, which a reload takes for new files. */
    private void touchFiles() throws IOException {
        for (String name : List.of("chain.pem", "key.pem")) {
            Path file = directory.resolve(name);
            Files.setLastModifiedTime(
                    file, FileTime.fromMillis(Files.getLastModifiedTime(file).toMillis() + 10_000));
        }
    }

    private static int refCnt(SslContext context) {
        return ((ReferenceCounted) context).refCnt();
    }

    private static PemSource pem(String resource) throws IOException {
        try (InputStream in = ServerSslContextsTest.class.getClassLoader().getResourceAsStream(resource)) {
            return new PemSource.Text(new String(in.readAllBytes(), StandardCharsets.US_ASCII));
        }
    }
}
