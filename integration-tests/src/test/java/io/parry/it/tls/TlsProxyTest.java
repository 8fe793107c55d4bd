package io.parry.it.tls;

import static org.assertj.core.api.Assertions.assertThat;

import io.parry.client.Endpoint;
import io.parry.client.HttpClient;
import io.parry.client.upstream.Upstream;
import io.parry.http.HttpResponse;
import io.parry.it.tls.TestCertificates.Authority;
import io.parry.it.tls.TestCertificates.Issued;
import io.parry.it.tls.TestCertificates.KeyKind;
import io.parry.proxy.ForwardingOptions;
import io.parry.proxy.GuardedUpstream;
import io.parry.proxy.ProxyHandler;
import io.parry.server.Handler;
import io.parry.server.Server;
import io.parry.server.TlsOptions;
import io.parry.testing.NettyLeakExtension;
import java.io.IOException;
import java.security.MessageDigest;
import java.time.Duration;
import java.util.HexFormat;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/** The proxy behind a TLS listener: what it tells the upstream about the client's TLS. */
@ExtendWith(NettyLeakExtension.class)
class TlsProxyTest {
    private static final Authority CA = TestCertificates.authority("Parry Proxy CA");
    private static final Issued SERVER = CA.issue(KeyKind.EC, "localhost");
    private static final Issued CLIENT = CA.issue(KeyKind.EC, "client.test");
    private static final String FORGED = "x-forwarded-client-cert: Hash=forged;Subject=\"CN=admin\"\r\n";

    private Server upstream;
    private Server gateway;
    private HttpClient client;
    private GuardedUpstream services;

    @BeforeEach
    void startUpstream() {
        upstream = Server.builder()
                .host("127.0.0.1")
                .port(0)
                .handler(Handler.sync((ctx, request) -> HttpResponse.ofText("xfcc="
                        + request.headers().get("x-forwarded-client-cert") + "\nproto="
                        + request.headers().get("x-forwarded-proto") + "\nforwarded="
                        + request.headers().get("forwarded"))))
                .options(o -> o.eventLoopThreads(1))
                .build()
                .start();
        client = HttpClient.ofDefault();
        services = GuardedUpstream.builder(Upstream.of("service", Endpoint.of("127.0.0.1", upstream.port())))
                .client(client)
                .build();
    }

    @AfterEach
    void stop() {
        gateway.stop(Duration.ofSeconds(1));
        upstream.stop(Duration.ofSeconds(1));
        services.close();
        client.close();
    }

    @Test
    void forwardsTheVerifiedClientCertificateAndNeverTheClientsOwnField() throws Exception {
        startGateway(true);

        try (TlsClient connection = TlsClient.connect(CA.clientContext(CLIENT), gateway.port(), "localhost")) {
            String body = connection.send(request()).body();

            String hash = HexFormat.of()
                    .formatHex(MessageDigest.getInstance("SHA-256")
                            .digest(CLIENT.certificate().getEncoded()));
            assertThat(body)
                    .contains("xfcc=Hash=" + hash + ";Cert=\"-----BEGIN%20CERTIFICATE-----%0A")
                    .contains(";Subject=\"CN=client.test\"")
                    .doesNotContain("forged")
                    .contains("proto=https")
                    .contains("proto=https;host=localhost");
        }
    }

    @Test
    void removesTheClientsFieldWhenItHasNoCertificate() throws IOException {
        startGateway(true);

        try (TlsClient connection = TlsClient.connect(CA.clientContext(null), gateway.port(), "localhost")) {
            assertThat(connection.send(request()).body()).contains("xfcc=null");
        }
    }

    @Test
    void forwardsNoCertificateWhenTheOptionIsOff() throws IOException {
        startGateway(false);

        try (TlsClient connection = TlsClient.connect(CA.clientContext(CLIENT), gateway.port(), "localhost")) {
            assertThat(connection.send(request()).body()).contains("xfcc=null");
        }
    }

    private static String request() {
        return "GET /who HTTP/1.1\r\nHost: localhost\r\n" + FORGED + "\r\n";
    }

    private void startGateway(boolean forwardCertificate) {
        TlsOptions tls = TlsOptions.builder()
                .certificate(SERVER.tls())
                .clientAuth(TlsOptions.ClientAuth.OPTIONAL)
                .clientCaPem(CA.pemText())
                .build();
        gateway = Server.builder()
                .host("127.0.0.1")
                .port(0)
                .handler(ProxyHandler.builder(services)
                        .forwarding(ForwardingOptions.builder()
                                .clientCertificate(forwardCertificate)
                                .build())
                        .build())
                .options(o -> o.eventLoopThreads(1).tls(tls))
                .build()
                .start();
    }
}
