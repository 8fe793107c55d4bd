package io.parry.server;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.Test;

class TlsOptionsTest {
    private static final TlsCertificate CERTIFICATE = TlsCertificate.ofFiles(Path.of("chain.pem"), Path.of("key.pem"));

    @Test
    void defaultsToModernTlsWithoutClientCertificates() {
        TlsOptions options = TlsOptions.of(CERTIFICATE);

        assertThat(options.protocols()).containsExactly("TLSv1.3", "TLSv1.2");
        assertThat(options.ciphers()).allMatch(cipher -> cipher.contains("GCM") || cipher.contains("CHACHA20"));
        assertThat(options.clientAuth()).isEqualTo(TlsOptions.ClientAuth.NONE);
        assertThat(options.handshakeTimeout()).isEqualTo(Duration.ofSeconds(10));
        assertThat(options.reloadInterval()).isEqualTo(Duration.ofSeconds(10));
        assertThat(options.provider()).isEqualTo(TlsOptions.Provider.AUTO);
    }

    @Test
    void refusesOptionsWithoutCertificate() {
        assertThatThrownBy(() -> TlsOptions.builder().build()).hasMessage("certificates: [] (expected: at least one)");
    }

    @Test
    void refusesUnknownProtocols() {
        assertThatThrownBy(() -> TlsOptions.builder()
                        .certificate(CERTIFICATE)
                        .protocols("TLSv1.1")
                        .build())
                .hasMessage("protocols: [TLSv1.1] (expected: TLSv1.2, TLSv1.3 or both)");
    }

    @Test
    void refusesClientAuthenticationWithoutCa() {
        assertThatThrownBy(() -> TlsOptions.builder()
                        .certificate(CERTIFICATE)
                        .clientAuth(TlsOptions.ClientAuth.REQUIRE)
                        .build())
                .hasMessageStartingWith("clientCa: none");
    }

    @Test
    void refusesAZeroHandshakeTimeout() {
        assertThatThrownBy(() -> TlsOptions.builder()
                        .certificate(CERTIFICATE)
                        .handshakeTimeout(Duration.ZERO)
                        .build())
                .hasMessage("handshakeTimeout: 0 (expected: > 0)");
    }

    @Test
    void neverPrintsPemText() {
        TlsOptions options = TlsOptions.builder()
                .certificates(List.of(TlsCertificate.ofPem("chain", "SECRET KEY")))
                .build();

        assertThat(options.toString()).doesNotContain("SECRET").contains("PEM in memory");
    }
}
