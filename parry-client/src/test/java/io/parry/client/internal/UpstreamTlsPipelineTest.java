package io.parry.client.internal;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import io.netty.buffer.ByteBuf;
import io.netty.channel.embedded.EmbeddedChannel;
import io.netty.handler.ssl.ApplicationProtocolConfig;
import io.netty.handler.ssl.ApplicationProtocolNames;
import io.netty.handler.ssl.OpenSsl;
import io.netty.handler.ssl.SslContext;
import io.netty.handler.ssl.SslContextBuilder;
import io.netty.handler.ssl.SslProvider;
import io.netty.handler.ssl.util.InsecureTrustManagerFactory;
import io.netty.handler.ssl.util.SelfSignedCertificate;
import io.parry.client.ClientOptions;
import io.parry.client.ClientProtocol;
import io.parry.client.ClientTimeouts;
import io.parry.client.Endpoint;
import io.parry.http.HttpMethod;
import io.parry.http.HttpRequest;
import io.parry.testing.NettyLeakExtension;
import io.parry.transport.TransportKind;
import io.parry.transport.spi.Transport;
import io.parry.transport.spi.tls.TlsWriteBatch;
import java.util.List;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/**
 * An upstream TLS connection's pipeline once its handshake is done, with no socket: the client's {@code SslHandler}
 * and the {@link Connector}'s ALPN negotiation on one channel, an upstream's {@code SslHandler} on another, their bytes
 * passed across by hand.
 */
@ExtendWith(NettyLeakExtension.class)
class UpstreamTlsPipelineTest {
    private static final Endpoint ENDPOINT = Endpoint.parse("https://localhost:8443");

    private static SelfSignedCertificate certificate;

    @BeforeAll
    @SuppressWarnings("deprecation") // SelfSignedCertificate: a throwaway certificate is all this needs.
    static void makeCertificate() throws Exception {
        certificate = new SelfSignedCertificate("localhost", "EC", 256);
    }

    @AfterAll
    @SuppressWarnings("deprecation")
    static void deleteCertificate() {
        certificate.delete();
    }

    @ParameterizedTest
    @EnumSource(names = {"HTTP1", "H2"})
    void batchesWritesBehindAnOpenSslHandlerOnceTheHandshakeIsDone(ClientProtocol protocol) throws Exception {
        assumeTrue(OpenSsl.isAvailable(), "netty-tcnative-boringssl-static did not load");
        EmbeddedChannel client = new EmbeddedChannel();
        EmbeddedChannel upstream = new EmbeddedChannel();
        try {
            startHandshake(client, upstream, SslProvider.OPENSSL, protocol);
            assertThat(client.pipeline().get(TlsWriteBatch.class)).isNull();

            exchangeUntilQuiet(client, upstream);

            List<String> names = client.pipeline().names();
            assertThat(names.get(names.indexOf("tls") + 1)).isEqualTo("tls-batch");
            assertThat(names).doesNotContain("negotiation");
        } finally {
            client.finishAndReleaseAll();
            upstream.finishAndReleaseAll();
        }
    }

    @ParameterizedTest
    @EnumSource(names = {"HTTP1", "H2"})
    void leavesTheJdksHandlerAsNettyMadeIt(ClientProtocol protocol) throws Exception {
        EmbeddedChannel client = new EmbeddedChannel();
        EmbeddedChannel upstream = new EmbeddedChannel();
        try {
            startHandshake(client, upstream, SslProvider.JDK, protocol);

            exchangeUntilQuiet(client, upstream);

            assertThat(client.pipeline().names()).doesNotContain("negotiation", "tls-batch");
            assertThat(client.pipeline().get(TlsWriteBatch.class)).isNull();
        } finally {
            client.finishAndReleaseAll();
            upstream.finishAndReleaseAll();
        }
    }

    /** Puts TLS on both channels as the Connector and an upstream do, the client's handshake started. */
    private static void startHandshake(
            EmbeddedChannel client, EmbeddedChannel upstream, SslProvider provider, ClientProtocol protocol)
            throws Exception {
        ClientOptions options = ClientOptions.builder().protocol(protocol).build();
        Transport transport = Transport.resolve(TransportKind.NIO);
        LoopPools loop = new LoopPools(client.eventLoop(), transport, options, new ClientTls(options));
        ConnectionPool pool = new ConnectionPool(loop, ENDPOINT);
        ClientCall owner = new ClientCall(
                loop,
                ENDPOINT.toString(),
                ENDPOINT,
                HttpRequest.builder(HttpMethod.GET, "/").build(),
                ClientTimeouts.ofDefault(),
                null,
                null);
        Connector connector = new Connector(client.eventLoop(), transport, options, new ClientTls(options));
        upstream.pipeline().addLast("tls", upstreamContext(provider).newHandler(upstream.alloc()));
        client.pipeline()
                .addLast("tls", clientContext(provider, protocol).newHandler(client.alloc(), "localhost", 8443));
        client.pipeline().addLast("negotiation", connector.new Negotiation(pool, owner));
    }

    /** Passes each side's bytes to the other until neither has any left. */
    private static void exchangeUntilQuiet(EmbeddedChannel client, EmbeddedChannel upstream) {
        boolean moved = true;
        for (int round = 0; moved && round < 20; round++) {
            moved = pass(client, upstream) | pass(upstream, client);
        }
    }

    private static boolean pass(EmbeddedChannel from, EmbeddedChannel to) {
        boolean moved = false;
        for (ByteBuf bytes; (bytes = from.readOutbound()) != null; ) {
            to.writeInbound(bytes);
            moved = true;
        }
        to.runPendingTasks();
        return moved;
    }

    private static SslContext upstreamContext(SslProvider provider) throws Exception {
        return SslContextBuilder.forServer(certificate.certificate(), certificate.privateKey())
                .sslProvider(provider)
                .applicationProtocolConfig(alpn(ApplicationProtocolNames.HTTP_2, ApplicationProtocolNames.HTTP_1_1))
                .build();
    }

    private static SslContext clientContext(SslProvider provider, ClientProtocol protocol) throws Exception {
        return SslContextBuilder.forClient()
                .sslProvider(provider)
                .trustManager(InsecureTrustManagerFactory.INSTANCE)
                .applicationProtocolConfig(
                        protocol == ClientProtocol.HTTP1
                                ? alpn(ApplicationProtocolNames.HTTP_1_1)
                                : alpn(ApplicationProtocolNames.HTTP_2, ApplicationProtocolNames.HTTP_1_1))
                .build();
    }

    private static ApplicationProtocolConfig alpn(String... protocols) {
        return new ApplicationProtocolConfig(
                ApplicationProtocolConfig.Protocol.ALPN,
                ApplicationProtocolConfig.SelectorFailureBehavior.NO_ADVERTISE,
                ApplicationProtocolConfig.SelectedListenerFailureBehavior.ACCEPT,
                protocols);
    }
}
