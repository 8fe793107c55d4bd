package io.parry.client;

import static io.parry.client.Calls.await;
import static io.parry.client.Calls.failure;
import static io.parry.client.Calls.text;
import static org.assertj.core.api.Assertions.assertThat;

import io.netty.handler.ssl.ApplicationProtocolConfig;
import io.netty.handler.ssl.ApplicationProtocolNames;
import io.netty.handler.ssl.ClientAuth;
import io.netty.handler.ssl.SslContext;
import io.netty.handler.ssl.SslContextBuilder;
import io.parry.http.HttpMethod;
import io.parry.http.HttpRequest;
import io.parry.http.HttpResponse;
import io.parry.testing.NettyLeakExtension;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.io.TempDir;

@ExtendWith(NettyLeakExtension.class)
class ClientTlsTest {
    @TempDir
    static Path dir;

    private static TestPki pki;
    private static TestPki otherPki;
    private static TestPki.Issued server;
    private static TestPki.Issued clientCertificate;

    private HttpClient client;
    private TestUpstream upstream;

    @BeforeAll
    static void issueCertificates() {
        pki = TestPki.create(dir, "parry-test");
        otherPki = TestPki.create(dir, "someone-else");
        server = pki.issue("upstream", "localhost");
        clientCertificate = pki.issue("gateway");
    }

    @AfterEach
    void close() {
        if (client != null) {
            client.close();
        }
        if (upstream != null) {
            upstream.close();
        }
    }

    @Test
    void verifiesTheUpstreamAgainstTheGivenCaBundle() throws Exception {
        upstream = TestUpstream.tls(serverContext(ClientAuth.NONE));
        client = client(
                ClientProtocol.HTTP1,
                ClientTlsOptions.builder().caBundle(pki.caFile()).build());

        HttpResponse response = await(client.send(endpoint(), HttpRequest.of(HttpMethod.GET, "/")));

        assertThat(text(response)).isEqualTo("http/1.1 connection 1");
    }

    @Test
    void refusesAnUpstreamSignedByAnotherAuthority() throws Exception {
        upstream = TestUpstream.tls(serverContext(ClientAuth.NONE));
        client = client(
                ClientProtocol.HTTP1,
                ClientTlsOptions.builder().caBundle(otherPki.caFile()).build());

        Throwable failure = failure(client.send(endpoint(), HttpRequest.of(HttpMethod.GET, "/")));

        assertThat(failure).isInstanceOf(UpstreamConnectException.class);
        assertThat(((ClientException) failure).requestSent()).isFalse();
    }

    @Test
    void refusesAnUpstreamWhoseCertificateDoesNotNameIt() throws Exception {
        upstream = TestUpstream.tls(serverContext(ClientAuth.NONE));
        client = client(
                ClientProtocol.HTTP1,
                ClientTlsOptions.builder()
                        .caBundle(pki.caFile())
                        .sniName("api.example.com")
                        .build());

        Throwable failure = failure(client.send(endpoint(), HttpRequest.of(HttpMethod.GET, "/")));

        assertThat(failure).isInstanceOf(UpstreamConnectException.class);
    }

    @Test
    void refusesAnUnknownAuthorityWithTheSystemTrustStore() throws Exception {
        upstream = TestUpstream.tls(serverContext(ClientAuth.NONE));
        client = client(ClientProtocol.HTTP1, ClientTlsOptions.ofDefault());

        assertThat(failure(client.send(endpoint(), HttpRequest.of(HttpMethod.GET, "/"))))
                .isInstanceOf(UpstreamConnectException.class);
    }

    @Test
    void acceptsAnyCertificateWhenVerificationIsOff() throws Exception {
        upstream = TestUpstream.tls(serverContext(ClientAuth.NONE));
        client = client(
                ClientProtocol.HTTP1, ClientTlsOptions.builder().verify(false).build());

        assertThat(text(await(client.send(endpoint(), HttpRequest.of(HttpMethod.GET, "/")))))
                .isEqualTo("http/1.1 connection 1");
    }

    @Test
    void presentsItsCertificateToAnUpstreamThatRequiresOne() throws Exception {
        upstream = TestUpstream.tls(serverContext(ClientAuth.REQUIRE));
        client = client(
                ClientProtocol.HTTP1,
                ClientTlsOptions.builder()
                        .caBundle(pki.caFile())
                        .clientCertificate(clientCertificate.chain(), clientCertificate.key())
                        .build());

        assertThat(text(await(client.send(endpoint(), HttpRequest.of(HttpMethod.GET, "/")))))
                .isEqualTo("http/1.1 connection 1");
    }

    @Test
    void failsWithoutACertificateWhenTheUpstreamRequiresOne() throws Exception {
        upstream = TestUpstream.tls(serverContext(ClientAuth.REQUIRE));
        client = client(
                ClientProtocol.HTTP1,
                ClientTlsOptions.builder().caBundle(pki.caFile()).build());

        assertThat(failure(client.send(endpoint(), HttpRequest.of(HttpMethod.GET, "/"))))
                .isInstanceOf(ClientException.class);
    }

    @Test
    void speaksHttp2WhenAlpnPicksIt() throws Exception {
        upstream = TestUpstream.tls(serverContext(ClientAuth.NONE));
        client = client(
                ClientProtocol.H2,
                ClientTlsOptions.builder().caBundle(pki.caFile()).build());

        HttpResponse response = await(client.send(endpoint(), HttpRequest.of(HttpMethod.GET, "/")));

        assertThat(text(response)).isEqualTo("connection 1");
        assertThat(response.protocol()).isEqualTo("HTTP/2.0");
        assertThat(await(response.body().trailers()).get("grpc-status")).isEqualTo("0");
        assertThat(upstream.requests.get(0).scheme().toString()).isEqualTo("https");
    }

    @Test
    void poolsHttp11ConnectionsWhenAlpnPicksItForAnHttp2Client() throws Exception {
        upstream = TestUpstream.tls(serverContext(ClientAuth.NONE, ApplicationProtocolNames.HTTP_1_1));
        client = client(
                ClientProtocol.H2,
                ClientTlsOptions.builder().caBundle(pki.caFile()).build());

        List<CompletableFuture<HttpResponse>> calls = new ArrayList<>();
        for (int i = 0; i < 3; i++) {
            calls.add(
                    client.send(endpoint(), HttpRequest.of(HttpMethod.GET, "/")).toCompletableFuture());
        }
        for (CompletableFuture<HttpResponse> call : calls) {
            HttpResponse response = await(call);
            assertThat(response.protocol()).as("the protocol it came over").isEqualTo("HTTP/1.1");
            assertThat(text(response)).startsWith("http/1.1 connection ");
        }
        int opened = upstream.connections();

        assertThat(text(await(client.send(endpoint(), HttpRequest.of(HttpMethod.GET, "/")))))
                .startsWith("http/1.1 connection ");
        assertThat(upstream.connections())
                .as("an idle HTTP/1.1 connection is used again")
                .isEqualTo(opened);
    }

    @Test
    void sendsAnAbsoluteHttpsTargetOverTls() throws Exception {
        upstream = TestUpstream.tls(serverContext(ClientAuth.NONE));
        client = client(
                ClientProtocol.HTTP1,
                ClientTlsOptions.builder().caBundle(pki.caFile()).build());

        HttpResponse response =
                await(client.send(HttpRequest.of(HttpMethod.GET, "https://localhost:" + upstream.port() + "/")));

        assertThat(text(response)).isEqualTo("http/1.1 connection 1");
    }

    private Endpoint endpoint() {
        return Endpoint.parse("https://127.0.0.1:" + upstream.port());
    }

    private static HttpClient client(ClientProtocol protocol, ClientTlsOptions tls) {
        return HttpClient.builder()
                .options(ClientOptions.builder()
                        .eventLoopThreads(1)
                        .protocol(protocol)
                        .tls(tls)
                        .build())
                .build();
    }

    private static SslContext serverContext(ClientAuth auth) throws Exception {
        return serverContext(auth, ApplicationProtocolNames.HTTP_2, ApplicationProtocolNames.HTTP_1_1);
    }

    private static SslContext serverContext(ClientAuth auth, String... alpn) throws Exception {
        return SslContextBuilder.forServer(server.chain().toFile(), server.key().toFile())
                .trustManager(pki.caFile().toFile())
                .clientAuth(auth)
                .applicationProtocolConfig(new ApplicationProtocolConfig(
                        ApplicationProtocolConfig.Protocol.ALPN,
                        ApplicationProtocolConfig.SelectorFailureBehavior.NO_ADVERTISE,
                        ApplicationProtocolConfig.SelectedListenerFailureBehavior.ACCEPT,
                        alpn))
                .build();
    }
}
