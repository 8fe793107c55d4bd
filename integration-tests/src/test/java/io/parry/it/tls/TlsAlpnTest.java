package io.parry.it.tls;

import static io.parry.it.tls.TlsServerTest.CA;
import static io.parry.it.tls.TlsServerTest.DESCRIBE_TLS;
import static io.parry.it.tls.TlsServerTest.LOCALHOST_EC;
import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import io.netty.handler.ssl.OpenSsl;
import io.parry.it.http2.RawHttp2Connection;
import io.parry.server.Server;
import io.parry.server.TlsOptions;
import io.parry.server.TlsOptions.Provider;
import io.parry.testing.NettyLeakExtension;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/**
 * What a listener that offers {@code h2} and {@code http/1.1} speaks to each kind of TLS client: HTTP/1.1 to one that
 * offers only {@code http/1.1} or no ALPN at all (RFC 7301, section 3.2: without the extension the server selects no
 * protocol, and HTTP/1.1 is what such a client speaks), HTTP/2 to one that offers only {@code h2} (RFC 9113, section 3.2).
 */
@ExtendWith(NettyLeakExtension.class)
class TlsAlpnTest {
    private Server server;

    @AfterEach
    void stop() {
        if (server != null) {
            server.stop(Duration.ofSeconds(1));
        }
    }

    @ParameterizedTest
    @EnumSource(Provider.class)
    void speaksHttp11ToAClientThatOffersOnlyHttp11(Provider provider) throws IOException {
        start(provider);

        try (TlsClient client = TlsClient.offering(CA.clientContext(null), server.port(), "http/1.1")) {
            TlsClient.Response response = client.get("localhost", "/");

            assertThat(client.socket().getApplicationProtocol()).isEqualTo("http/1.1");
            assertThat(response.head()).startsWith("HTTP/1.1 200");
            assertThat(response.body()).contains("alpn=http/1.1");
        }
    }

    @ParameterizedTest
    @EnumSource(Provider.class)
    void speaksHttp11ToAClientThatOffersNoAlpn(Provider provider) throws IOException {
        start(provider);

        try (TlsClient client = TlsClient.offering(CA.clientContext(null), server.port())) {
            TlsClient.Response response = client.get("localhost", "/");

            assertThat(client.socket().getApplicationProtocol()).isEmpty();
            assertThat(response.head()).startsWith("HTTP/1.1 200");
            assertThat(response.body()).contains("sni=localhost");
        }
    }

    @ParameterizedTest
    @EnumSource(Provider.class)
    void speaksHttp2ToAClientThatOffersOnlyH2(Provider provider) throws IOException {
        start(provider);

        try (TlsClient tls = TlsClient.offering(CA.clientContext(null), server.port(), "h2");
                RawHttp2Connection client = RawHttp2Connection.open(tls.socket())) {
            client.headers(1, RawHttp2Connection.get("/").authority("localhost"), true);
            RawHttp2Connection.Response response = client.response(1);

            assertThat(tls.socket().getApplicationProtocol()).isEqualTo("h2");
            assertThat(response.head().status().toString()).isEqualTo("200");
            assertThat(new String(response.body(), StandardCharsets.UTF_8)).contains("alpn=h2");
        }
    }

    private void start(Provider provider) {
        assumeTrue(
                provider != Provider.OPENSSL || OpenSsl.isAvailable(), "netty-tcnative-boringssl-static did not load");
        server = Server.builder()
                .host("127.0.0.1")
                .port(0)
                .handler(DESCRIBE_TLS)
                .options(o -> o.eventLoopThreads(1)
                        .tls(TlsOptions.builder()
                                .certificate(LOCALHOST_EC.tls())
                                .provider(provider)
                                .build()))
                .build()
                .start();
    }
}
