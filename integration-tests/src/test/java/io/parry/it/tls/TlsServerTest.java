package io.parry.it.tls;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.netty.handler.ssl.OpenSsl;
import io.parry.http.HttpResponse;
import io.parry.it.http2.RawHttp2Connection;
import io.parry.it.tls.TestCertificates.Authority;
import io.parry.it.tls.TestCertificates.Issued;
import io.parry.it.tls.TestCertificates.KeyKind;
import io.parry.server.Handler;
import io.parry.server.Rejection;
import io.parry.server.Server;
import io.parry.server.TlsInfo;
import io.parry.server.TlsOptions;
import io.parry.server.TlsOptions.ClientAuth;
import io.parry.server.TlsOptions.Provider;
import io.parry.testing.NettyLeakExtension;
import java.io.IOException;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse.BodyHandlers;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.concurrent.TimeUnit;
import java.util.function.UnaryOperator;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

@ExtendWith(NettyLeakExtension.class)
class TlsServerTest {
    static final Authority CA = TestCertificates.authority("Parry Test CA");
    static final Issued LOCALHOST_EC = CA.issue(KeyKind.EC, "localhost", "127.0.0.1");

    /** Answers with what the handshake settled, one line per fact. */
    static final Handler DESCRIBE_TLS = Handler.sync((ctx, request) ->
            HttpResponse.ofText(ctx.tls().map(TlsServerTest::describe).orElse("cleartext")));

    private Server server;

    @AfterEach
    void stop() {
        if (server != null) {
            server.stop(Duration.ofSeconds(1));
        }
    }

    @ParameterizedTest(name = "{0} {1} {2}")
    @CsvSource({
        "OPENSSL, RSA, TLSv1.2",
        "OPENSSL, RSA, TLSv1.3",
        "OPENSSL, EC, TLSv1.2",
        "OPENSSL, EC, TLSv1.3",
        "JDK, RSA, TLSv1.2",
        "JDK, RSA, TLSv1.3",
        "JDK, EC, TLSv1.2",
        "JDK, EC, TLSv1.3"
    })
    void servesEachProtocolWithRsaAndEcKeysOnBothProviders(Provider provider, KeyKind key, String protocol)
            throws IOException {
        org.junit.jupiter.api.Assumptions.assumeTrue(
                provider != Provider.OPENSSL || OpenSsl.isAvailable(), "netty-tcnative-boringssl-static did not load");
        Issued certificate = CA.issue(key, "localhost");
        start(tls -> tls.certificate(certificate.tls()).provider(provider));

        try (TlsClient client = TlsClient.connect(CA.clientContext(null), server.port(), "localhost", protocol)) {
            TlsClient.Response response = client.get("localhost", "/");

            assertThat(response.status()).isEqualTo(200);
            assertThat(response.body())
                    .contains("protocol=" + protocol)
                    .contains("sni=localhost")
                    .contains("alpn=http/1.1")
                    .contains("peer=none");
            assertThat(client.serverCertificate().getPublicKey().getAlgorithm()).isEqualTo(key.name());
        }
    }

    @ParameterizedTest(name = "{0} {1}")
    @CsvSource({"OPENSSL, -tls1_2", "OPENSSL, -tls1_3", "JDK, -tls1_2", "JDK, -tls1_3"})
    void resumesTheSessionsOfReturningClients(Provider provider, String protocol) throws Exception {
        org.junit.jupiter.api.Assumptions.assumeTrue(
                provider != Provider.OPENSSL || OpenSsl.isAvailable(), "netty-tcnative-boringssl-static did not load");
        org.junit.jupiter.api.Assumptions.assumeTrue(
                hasOpenSslCommand(), "the openssl command is missing (apt-get install openssl)");
        start(tls -> tls.certificate(LOCALHOST_EC.tls()).provider(provider));

        Path session = Files.createTempFile("parry-tls-session", ".pem");
        try {
            String first = sClient(protocol, "-sess_out", session);
            assertThat(first).contains("New,");
            // A ticket in TLS 1.2 too (RFC 5077): resumption that needs no session cache on the server.
            assertThat(first).contains("TLS session ticket:");
            assertThat(sClient(protocol, "-sess_in", session)).contains("Reused,");
        } finally {
            Files.deleteIfExists(session);
        }
    }

    /**
     * One {@code openssl s_client} connection that sends a request and reads the answer to the end, so a
     * TLS 1.3 ticket (sent after the handshake) is read; its output.
     */
    private String sClient(String protocol, String sessionOption, Path session) throws Exception {
        Process client = new ProcessBuilder(
                        "openssl",
                        "s_client",
                        "-connect",
                        "127.0.0.1:" + server.port(),
                        protocol,
                        sessionOption,
                        session.toString(),
                        "-ign_eof")
                .redirectErrorStream(true)
                .start();
        try (var in = client.getOutputStream()) {
            in.write("GET / HTTP/1.1\r\nHost: localhost\r\nConnection: close\r\n\r\n"
                    .getBytes(StandardCharsets.US_ASCII));
        }
        String output = new String(client.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        assertThat(client.waitFor(20, TimeUnit.SECONDS)).isTrue();
        return output;
    }

    private static boolean hasOpenSslCommand() {
        try {
            return new ProcessBuilder("openssl", "version").start().waitFor(10, TimeUnit.SECONDS);
        } catch (IOException | InterruptedException e) {
            return false;
        }
    }

    @Test
    void answersJdkHttpClientThatTrustsTheCertificate() throws Exception {
        start(tls -> tls.certificate(LOCALHOST_EC.tls()));
        HttpClient client = HttpClient.newBuilder()
                .sslContext(CA.clientContext(null))
                .version(HttpClient.Version.HTTP_1_1)
                .build();

        var response = client.send(
                HttpRequest.newBuilder(URI.create("https://localhost:" + server.port() + "/"))
                        .build(),
                BodyHandlers.ofString());

        assertThat(response.statusCode()).isEqualTo(200);
        assertThat(response.body()).contains("protocol=TLSv1.3").contains("sni=localhost");
    }

    @ParameterizedTest(name = "{0}")
    @CsvSource({"OPENSSL", "JDK"})
    void speaksHttp2WhenAlpnChoosesH2AndHttp11WhenTheClientOffersOnlyThat(Provider provider) throws Exception {
        start(tls -> tls.certificate(LOCALHOST_EC.tls()).provider(provider));
        URI uri = URI.create("https://localhost:" + server.port() + "/");

        var h2 = HttpClient.newBuilder()
                .sslContext(CA.clientContext(null))
                .version(HttpClient.Version.HTTP_2)
                .build()
                .send(HttpRequest.newBuilder(uri).build(), BodyHandlers.ofString());
        var http11 = HttpClient.newBuilder()
                .sslContext(CA.clientContext(null))
                .version(HttpClient.Version.HTTP_1_1)
                .build()
                .send(HttpRequest.newBuilder(uri).build(), BodyHandlers.ofString());

        assertThat(h2.version()).isEqualTo(HttpClient.Version.HTTP_2);
        assertThat(h2.body()).contains("alpn=h2").contains("sni=localhost");
        assertThat(http11.version()).isEqualTo(HttpClient.Version.HTTP_1_1);
        assertThat(http11.body()).contains("alpn=http/1.1");
    }

    @Test
    void answers421OverHttp2WhenTheAuthorityIsNotCoveredByTheConnectionsCertificate() throws IOException {
        start(tls -> tls.certificate(CA.issue(KeyKind.EC, "a.test").tls())
                .certificate(CA.issue(KeyKind.EC, "b.test").tls()));

        try (RawHttp2Connection client =
                RawHttp2Connection.open(TlsClient.handshake(CA.clientContext(null), server.port(), "a.test", "h2"))) {
            client.headers(1, RawHttp2Connection.get("/").authority("b.test"), true);

            assertThat(client.response(1).head().status().toString()).isEqualTo("421");
        }
        assertThat(server.rejections(Rejection.MISDIRECTED_REQUEST)).isEqualTo(1);
    }

    @Test
    void choosesTheCertificateByTheSniName() throws IOException {
        Issued first = CA.issue(KeyKind.EC, "a.test");
        Issued second = CA.issue(KeyKind.RSA, "b.test", "*.b.test");
        start(tls -> tls.certificate(first.tls()).certificate(second.tls()));

        // A context each, so that no connection resumes another's session.
        try (TlsClient b = TlsClient.connect(CA.clientContext(null), server.port(), "b.test");
                TlsClient wildcard = TlsClient.connect(CA.clientContext(null), server.port(), "www.b.test");
                TlsClient none = TlsClient.connect(CA.clientContext(null), server.port(), null);
                TlsClient unknown = TlsClient.connect(CA.clientContext(null), server.port(), "c.test")) {
            assertThat(b.serverCertificate()).isEqualTo(second.certificate());
            assertThat(wildcard.serverCertificate()).isEqualTo(second.certificate());
            assertThat(none.serverCertificate()).isEqualTo(first.certificate());
            assertThat(unknown.serverCertificate()).isEqualTo(first.certificate());
            assertThat(b.get("b.test", "/").status()).isEqualTo(200);
            assertThat(wildcard.get("www.b.test:443", "/").status()).isEqualTo(200);
        }
    }

    @Test
    void answers421WhenTheHostIsNotCoveredByTheConnectionsCertificate() throws IOException {
        start(tls -> tls.certificate(CA.issue(KeyKind.EC, "a.test").tls())
                .certificate(CA.issue(KeyKind.EC, "b.test").tls()));

        try (TlsClient client = TlsClient.connect(CA.clientContext(null), server.port(), "a.test")) {
            TlsClient.Response response = client.get("b.test", "/");

            assertThat(response.status()).isEqualTo(421);
            assertThat(client.isClosedByServer()).isTrue();
        }
        assertThat(server.rejections(Rejection.MISDIRECTED_REQUEST)).isEqualTo(1);
    }

    @Test
    void letsAnyHostThroughWhenTheListenerHasOneCertificate() throws IOException {
        start(tls -> tls.certificate(CA.issue(KeyKind.EC, "a.test").tls()));

        try (TlsClient client = TlsClient.connect(CA.clientContext(null), server.port(), "a.test")) {
            assertThat(client.get("elsewhere.test", "/").status()).isEqualTo(200);
        }
    }

    @Test
    void showsTheVerifiedClientCertificateToHandlersWhenRequired() throws IOException {
        Issued client = CA.issue(KeyKind.EC, "client.test");
        start(tls -> tls.certificate(LOCALHOST_EC.tls())
                .clientAuth(ClientAuth.REQUIRE)
                .clientCaPem(CA.pemText()));

        try (TlsClient connection = TlsClient.connect(CA.clientContext(client), server.port(), "localhost")) {
            assertThat(connection.get("localhost", "/").body()).contains("peer=CN=client.test");
        }
    }

    @Test
    void failsAndCountsTheHandshakeOfAClientWithoutCertificateWhenOneIsRequired() throws IOException {
        start(tls -> tls.certificate(LOCALHOST_EC.tls())
                .clientAuth(ClientAuth.REQUIRE)
                .clientCaPem(CA.pemText()));

        assertThatThrownBy(() -> {
                    try (TlsClient connection = TlsClient.connect(CA.clientContext(null), server.port(), "localhost")) {
                        // With TLS 1.3 the client learns of the refusal on its first read.
                        connection.get("localhost", "/");
                    }
                })
                .isInstanceOf(IOException.class);
        awaitRejections(Rejection.TLS_HANDSHAKE, 1);
    }

    @Test
    void acceptsClientsWithAndWithoutCertificateWhenOptional() throws IOException {
        Issued client = CA.issue(KeyKind.RSA, "client.test");
        start(tls -> tls.certificate(LOCALHOST_EC.tls())
                .clientAuth(ClientAuth.OPTIONAL)
                .clientCaPem(CA.pemText()));

        try (TlsClient with = TlsClient.connect(CA.clientContext(client), server.port(), "localhost");
                TlsClient without = TlsClient.connect(CA.clientContext(null), server.port(), "localhost")) {
            assertThat(with.get("localhost", "/").body()).contains("peer=CN=client.test");
            assertThat(without.get("localhost", "/").body()).contains("peer=none");
        }
    }

    @Test
    void refusesAClientCertificateFromAnotherCa() {
        Issued stranger = TestCertificates.authority("Other CA").issue(KeyKind.EC, "client.test");
        start(tls -> tls.certificate(LOCALHOST_EC.tls())
                .clientAuth(ClientAuth.OPTIONAL)
                .clientCaPem(CA.pemText()));

        assertThatThrownBy(() -> {
                    try (TlsClient connection =
                            TlsClient.connect(CA.clientContext(stranger), server.port(), "localhost")) {
                        connection.get("localhost", "/");
                    }
                })
                .isInstanceOf(IOException.class);
        awaitRejections(Rejection.TLS_HANDSHAKE, 1);
    }

    @Test
    void closesAClientThatSendsNothingAfterTheHandshakeTimeout() throws IOException {
        start(tls -> tls.certificate(LOCALHOST_EC.tls()).handshakeTimeout(Duration.ofMillis(200)));

        try (Socket silent = new Socket()) {
            silent.connect(new InetSocketAddress("127.0.0.1", server.port()));
            silent.setSoTimeout(5000);

            assertThat(silent.getInputStream().read()).isEqualTo(-1);
        }
        awaitRejections(Rejection.TLS_HANDSHAKE, 1);
        awaitNoConnections();
    }

    @Test
    void closesAndCountsGarbageInsteadOfAClientHelloAndLeavesOtherConnectionsAlone() throws IOException {
        start(tls -> tls.certificate(LOCALHOST_EC.tls()));

        try (TlsClient good = TlsClient.connect(CA.clientContext(null), server.port(), "localhost");
                Socket garbage = new Socket()) {
            garbage.connect(new InetSocketAddress("127.0.0.1", server.port()));
            garbage.setSoTimeout(5000);
            garbage.getOutputStream().write("GET / HTTP/1.1\r\nHost: x\r\n\r\n".getBytes(StandardCharsets.US_ASCII));

            assertThat(drain(garbage)).doesNotContain("HTTP/1.1");
            awaitRejections(Rejection.TLS_HANDSHAKE, 1);
            assertThat(good.get("localhost", "/").status()).isEqualTo(200);
        }
    }

    @Test
    void refusesTheWholeServerWhenACertificateDoesNotLoad() {
        assertThatThrownBy(() -> Server.builder()
                        .handler(DESCRIBE_TLS)
                        .options(o -> o.tls(TlsOptions.of(
                                io.parry.server.TlsCertificate.ofPem(LOCALHOST_EC.chainPem(), "not a key"))))
                        .build())
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("does not load");
    }

    static String describe(TlsInfo tls) {
        return "protocol=" + tls.protocol() + "\ncipher=" + tls.cipherSuite() + "\nsni="
                + tls.serverName().orElse("none") + "\nalpn=" + tls.applicationProtocol() + "\npeer="
                + (tls.peerCertificates().isEmpty()
                        ? "none"
                        : tls.peerCertificates()
                                .get(0)
                                .getSubjectX500Principal()
                                .getName());
    }

    private void start(UnaryOperator<TlsOptions.Builder> tls) {
        server = Server.builder()
                .host("127.0.0.1")
                .port(0)
                .handler(DESCRIBE_TLS)
                .options(o -> o.eventLoopThreads(1)
                        .tls(tls.apply(TlsOptions.builder()).build()))
                .build()
                .start();
    }

    private static String drain(Socket socket) {
        try {
            return new String(socket.getInputStream().readAllBytes(), StandardCharsets.ISO_8859_1);
        } catch (IOException e) {
            return "";
        }
    }

    private void awaitRejections(Rejection reason, long count) {
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(5);
        while (server.rejections(reason) < count && System.nanoTime() < deadline) {
            Thread.onSpinWait();
        }
        assertThat(server.rejections(reason)).isEqualTo(count);
    }

    private void awaitNoConnections() {
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(5);
        while (server.connections() > 0 && System.nanoTime() < deadline) {
            Thread.onSpinWait();
        }
        assertThat(server.connections()).isZero();
    }
}
