package io.parry.client.internal;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import io.netty.handler.ssl.OpenSsl;
import io.netty.handler.ssl.ReferenceCountedOpenSslContext;
import io.netty.handler.ssl.util.SelfSignedCertificate;
import io.parry.client.ClientOptions;
import io.parry.client.ClientTlsOptions;
import io.parry.client.Endpoint;
import io.parry.http.HttpMethod;
import io.parry.http.HttpRequest;
import io.parry.http.HttpResponse;
import io.parry.server.Handler;
import io.parry.server.Server;
import io.parry.server.TlsCertificate;
import io.parry.server.TlsOptions;
import io.parry.testing.NettyLeakExtension;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * The client's TLS context: how it is built, and that its OpenSSL memory is freed when the client and the last
 * connection that uses it are done (the context is reference counted; leaks fail the class at paranoid detection).
 */
@ExtendWith(NettyLeakExtension.class)
class ClientTlsTest {
    private static final ClientOptions OPTIONS = ClientOptions.builder()
            .eventLoopThreads(1)
            .tls(ClientTlsOptions.builder().verify(false).build())
            .build();

    private static SelfSignedCertificate certificate;
    private static Server upstream;

    private final ClientTls tls = new ClientTls(OPTIONS);
    private final ClientLoops loops = new ClientLoops(OPTIONS, tls);

    @BeforeAll
    @SuppressWarnings("deprecation") // SelfSignedCertificate: a throwaway certificate is all this needs.
    static void startUpstream() throws Exception {
        certificate = new SelfSignedCertificate("localhost", "EC", 256);
        upstream = Server.builder()
                .host("127.0.0.1")
                .port(0)
                .handler(Handler.sync((ctx, request) -> HttpResponse.ofText("ok")))
                .options(o -> o.eventLoopThreads(1)
                        .tls(TlsOptions.of(TlsCertificate.ofFiles(
                                certificate.certificate().toPath(),
                                certificate.privateKey().toPath()))))
                .build()
                .start();
    }

    @AfterAll
    @SuppressWarnings("deprecation")
    static void stopUpstream() {
        upstream.close();
        certificate.delete();
    }

    @BeforeEach
    void requireOpenSsl() {
        assumeTrue(OpenSsl.isAvailable(), "netty-tcnative-boringssl-static did not load");
    }

    @AfterEach
    void close() {
        loops.close();
    }

    @Test
    void givesEachOpenSslUpstreamConnectionAHandshakeBufferOf32Bytes() {
        assertThat(((ReferenceCountedOpenSslContext) tls.context()).getBioNonApplicationBufferSize())
                .isEqualTo(32);
    }

    @Test
    void freesTheOpenSslContextWhenTheClientCloses() throws Exception {
        assertThat(get()).isEqualTo("ok");
        ReferenceCountedOpenSslContext context = (ReferenceCountedOpenSslContext) tls.context();
        assertThat(context.refCnt())
                .as("the client's and its pooled connection's")
                .isEqualTo(2);

        loops.close();

        assertThat(context.refCnt()).isZero();
    }

    @Test
    void keepsTheContextForTheConnectionsThatStillUseIt() throws Exception {
        assertThat(get()).isEqualTo("ok");
        ReferenceCountedOpenSslContext context = (ReferenceCountedOpenSslContext) tls.context();

        tls.close();

        assertThat(context.refCnt()).isEqualTo(1);
        assertThat(get()).as("on the pooled connection").isEqualTo("ok");
        loops.close();
        assertThat(context.refCnt()).isZero();
    }

    private String get() throws Exception {
        HttpResponse response = loops.call(
                        Endpoint.parse("https://127.0.0.1:" + upstream.port()),
                        HttpRequest.of(HttpMethod.GET, "/"),
                        OPTIONS.timeouts(),
                        null,
                        null)
                .get(10, TimeUnit.SECONDS);
        return response.body()
                .aggregate(1024)
                .toCompletableFuture()
                .get(10, TimeUnit.SECONDS)
                .toStringUtf8();
    }
}
