package io.parry.transport.spi.tls;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import io.netty.handler.ssl.ClientAuth;
import io.netty.handler.ssl.OpenSsl;
import io.netty.handler.ssl.OpenSslSessionContext;
import io.netty.handler.ssl.ReferenceCountedOpenSslContext;
import io.netty.handler.ssl.SslContext;
import io.netty.handler.ssl.SslProvider;
import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.util.List;
import javax.net.ssl.SSLSessionContext;
import org.junit.jupiter.api.Test;

/** What the server contexts keep per connection and in all: session caches and handshake buffers. */
class ServerSslContextsTest {
    private static final List<String> CIPHERS =
            List.of("TLS_AES_128_GCM_SHA256", "TLS_ECDHE_ECDSA_WITH_AES_128_GCM_SHA256");

    @Test
    void turnsTheOpenSslSessionCacheOffWhenTicketsServeResumption() throws IOException {
        assumeTrue(OpenSsl.isAvailable(), "netty-tcnative-boringssl-static did not load");

        SSLSessionContext sessions = load(List.of("TLSv1.3", "TLSv1.2"), SslProvider.OPENSSL);

        assertThat(sessions).isInstanceOf(OpenSslSessionContext.class);
        assertThat(((OpenSslSessionContext) sessions).isSessionCacheEnabled()).isFalse();
    }

    @Test
    void keepsTheOpenSslSessionCacheForTls12Alone() throws IOException {
        assumeTrue(OpenSsl.isAvailable(), "netty-tcnative-boringssl-static did not load");

        SSLSessionContext sessions = load(List.of("TLSv1.2"), SslProvider.OPENSSL);

        assertThat(((OpenSslSessionContext) sessions).isSessionCacheEnabled()).isTrue();
    }

    @Test
    void leavesTheJdkProvidersSessionsAsTheyAre() throws IOException {
        SSLSessionContext sessions = load(List.of("TLSv1.3", "TLSv1.2"), SslProvider.JDK);

        assertThat(sessions).isNotInstanceOf(OpenSslSessionContext.class);
        assertThat(sessions.getSessionCacheSize()).isPositive();
    }

    @Test
    void givesEachOpenSslConnectionAHandshakeBufferOf32Bytes() throws IOException {
        assumeTrue(OpenSsl.isAvailable(), "netty-tcnative-boringssl-static did not load");

        SslContext context = context(List.of("TLSv1.3", "TLSv1.2"), SslProvider.OPENSSL);

        assertThat(((ReferenceCountedOpenSslContext) context).getBioNonApplicationBufferSize())
                .isEqualTo(32);
    }

    private static SSLSessionContext load(List<String> protocols, SslProvider provider) throws IOException {
        return context(protocols, provider).sessionContext();
    }

    private static SslContext context(List<String> protocols, SslProvider provider) throws IOException {
        CertifiedKey key = new CertifiedKey(pem("tls/cert.pem"), pem("tls/key.pem"));
        ServerTlsSpec spec =
                new ServerTlsSpec(List.of(key), protocols, CIPHERS, ClientAuth.NONE, null, List.of(), provider);
        return ServerSslContexts.load(spec).select(null).context();
    }

    private static PemSource pem(String resource) throws IOException {
        try (InputStream in = ServerSslContextsTest.class.getClassLoader().getResourceAsStream(resource)) {
            return new PemSource.Text(new String(in.readAllBytes(), StandardCharsets.US_ASCII));
        }
    }
}
