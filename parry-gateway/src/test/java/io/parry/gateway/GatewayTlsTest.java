package io.parry.gateway;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.parry.gateway.internal.demo.DemoCertificate;
import io.parry.testing.NettyLeakExtension;
import java.io.ByteArrayInputStream;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.net.http.HttpResponse.BodyHandlers;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.KeyStore;
import java.security.cert.CertificateFactory;
import java.util.Map;
import javax.net.ssl.SSLContext;
import javax.net.ssl.TrustManagerFactory;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.io.TempDir;

@ExtendWith(NettyLeakExtension.class)
class GatewayTlsTest {
    private static final DemoCertificate CERTIFICATE = DemoCertificate.generate();

    @TempDir
    Path dir;

    @Test
    void servesRoutesOverHttpsAndRedirectsCleartextWith308() throws Exception {
        Files.writeString(dir.resolve("chain.pem"), CERTIFICATE.tls().chainPem().orElseThrow());
        Files.writeString(dir.resolve("key.pem"), CERTIFICATE.tls().keyPem().orElseThrow());
        String yaml =
                """
                listener:
                  host: 127.0.0.1
                  port: 0
                  tls:
                    certificates: [{ chain: %s, key: %s }]
                    protocols: [TLSv1.3]
                redirectListener: { host: 127.0.0.1, port: 0 }
                admin: { port: 0 }
                accessLog: off
                routes:
                  - match: { path: /hello }
                    respond: { status: 200, body: hi }
                """
                        .formatted(dir.resolve("chain.pem"), dir.resolve("key.pem"));

        try (TestGateway gateway = TestGateway.start(dir, yaml, Map.of())) {
            HttpClient client = HttpClient.newBuilder()
                    .sslContext(trusting(CERTIFICATE))
                    .version(HttpClient.Version.HTTP_1_1)
                    .build();
            int httpsPort = gateway.gateway().port();
            HttpResponse<String> hello = client.send(
                    HttpRequest.newBuilder(URI.create("https://localhost:" + httpsPort + "/hello"))
                            .build(),
                    BodyHandlers.ofString());
            HttpResponse<String> redirected = client.send(
                    HttpRequest.newBuilder(URI.create(
                                    "http://localhost:" + gateway.gateway().redirectPort() + "/a/b?c=d&e"))
                            .POST(HttpRequest.BodyPublishers.ofString("body"))
                            .build(),
                    BodyHandlers.ofString());

            assertThat(hello.statusCode()).isEqualTo(200);
            assertThat(hello.body()).isEqualTo("hi");
            assertThat(redirected.statusCode()).isEqualTo(308);
            assertThat(redirected.headers().firstValue("location"))
                    .hasValue("https://localhost:" + httpsPort + "/a/b?c=d&e");
        }
    }

    @Test
    void refusesARedirectListenerWithoutTls() {
        String yaml =
                """
                listener: { port: 0 }
                redirectListener: { port: 0 }
                admin: { port: 0 }
                """;

        assertThatThrownBy(() -> TestGateway.start(dir, yaml, Map.of()))
                .hasMessageContaining("'redirectListener' redirects to HTTPS, but 'listener' has no 'tls'");
    }

    @Test
    void refusesTlsWithoutCertificatesOrWithAnUnknownClientAuth() {
        String yaml =
                """
                listener: { port: 0, tls: { clientAuth: sometimes } }
                admin: { port: 0 }
                """;

        assertThatThrownBy(() -> TestGateway.start(dir, yaml, Map.of()))
                .hasMessageContaining("has no 'certificates'")
                .hasMessageContaining("'clientAuth' must be one of none, optional, require, got 'sometimes'");
    }

    @Test
    void failsToStartNamingACertificateFileThatDoesNotLoad() {
        String yaml =
                """
                listener: { port: 0, tls: { certificates: [{ chain: %s, key: %s }] } }
                admin: { port: 0 }
                """
                        .formatted(dir.resolve("missing.pem"), dir.resolve("missing-key.pem"));

        assertThatThrownBy(() -> TestGateway.start(dir, yaml, Map.of()))
                .hasMessageContaining("missing.pem")
                .hasMessageContaining("does not load");
    }

    static SSLContext trusting(DemoCertificate certificate) throws Exception {
        KeyStore trust = KeyStore.getInstance("PKCS12");
        trust.load(null, null);
        trust.setCertificateEntry(
                "demo",
                CertificateFactory.getInstance("X.509")
                        .generateCertificate(new ByteArrayInputStream(
                                certificate.tls().chainPem().orElseThrow().getBytes(StandardCharsets.US_ASCII))));
        TrustManagerFactory factory = TrustManagerFactory.getInstance("PKIX");
        factory.init(trust);
        SSLContext context = SSLContext.getInstance("TLS");
        context.init(null, factory.getTrustManagers(), null);
        return context;
    }
}
