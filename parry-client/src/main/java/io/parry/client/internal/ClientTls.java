package io.parry.client.internal;

import io.netty.buffer.ByteBufAllocator;
import io.netty.handler.codec.http2.Http2SecurityUtil;
import io.netty.handler.ssl.ApplicationProtocolConfig;
import io.netty.handler.ssl.ApplicationProtocolNames;
import io.netty.handler.ssl.SslContext;
import io.netty.handler.ssl.SslContextBuilder;
import io.netty.handler.ssl.SslHandler;
import io.netty.handler.ssl.SslProvider;
import io.netty.handler.ssl.SupportedCipherSuiteFilter;
import io.netty.handler.ssl.util.InsecureTrustManagerFactory;
import io.netty.util.IllegalReferenceCountException;
import io.netty.util.ReferenceCountUtil;
import io.parry.client.ClientOptions;
import io.parry.client.ClientProtocol;
import io.parry.client.ClientTlsOptions;
import io.parry.client.Endpoint;
import io.parry.transport.spi.tls.HandshakeBuffer;
import io.parry.transport.spi.tls.SslProviders;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.List;
import javax.net.ssl.SSLException;
import javax.net.ssl.SSLParameters;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * A client's TLS context, built from its {@link ClientTlsOptions} on the first connection to a secure
 * endpoint and shared by all its event loops: OpenSSL when netty-tcnative loads, the JDK otherwise (chosen and
 * logged once per process by {@link SslProviders});
 * ALPN offering {@code h2} and {@code http/1.1}, or {@code http/1.1} alone for an HTTP/1.1 client;
 * the endpoint's name (or the configured SNI name) sent in SNI and verified against its certificate
 * (RFC 9110, section 4.3.4). Thread-safe.
 *
 * <p>An OpenSSL context is reference counted ({@link SslProvider#OPENSSL_REFCNT}), as the server's are: this holds one
 * reference, given up on {@link #close()}, and each connection's engine one of its own until the connection ends, so
 * the native memory is freed when the client and its last connection are done, not by a finalizer some collections
 * later. A JDK context is not counted.
 */
final class ClientTls implements AutoCloseable {
    private static final Logger log = LoggerFactory.getLogger(ClientTls.class);

    private final ClientTlsOptions options;
    private final boolean offersH2;
    /** Built on first use; {@code null} before, and once closed. */
    private volatile SslContext context;

    private boolean closed;

    ClientTls(ClientOptions options) {
        this.options = options.tls();
        this.offersH2 = options.protocol() != ClientProtocol.HTTP1;
    }

    /**
     * A handler for a new connection to the endpoint, whose engine holds a reference to the context until the
     * connection ends; throws when the options' files cannot be read, or once closed.
     */
    SslHandler newHandler(ByteBufAllocator alloc, Endpoint endpoint) {
        String name = options.sniName() != null ? options.sniName() : endpoint.host();
        SslContext context = acquire();
        SslHandler handler;
        try {
            handler = context.newHandler(alloc, name, endpoint.port());
        } finally {
            ReferenceCountUtil.release(context);
        }
        if (options.verify()) {
            SSLParameters parameters = handler.engine().getSSLParameters();
            parameters.setEndpointIdentificationAlgorithm("HTTPS");
            handler.engine().setSSLParameters(parameters);
        }
        return handler;
    }

    /** The context, built if it was not; it may be released by {@link #close()} at any time. */
    SslContext context() {
        SslContext built = context;
        return built != null ? built : built();
    }

    /** Gives up this client's reference: the context is freed once the connections that use it have ended. */
    @Override
    public synchronized void close() {
        closed = true;
        SslContext last = context;
        context = null;
        ReferenceCountUtil.release(last);
    }

    /**
     * The context with a reference taken for the caller, lock-free but for the first build: a close that released it
     * meanwhile has also cleared the field, so the next look finds the client closed.
     */
    private SslContext acquire() {
        while (true) {
            SslContext current = context();
            try {
                ReferenceCountUtil.retain(current);
                return current;
            } catch (IllegalReferenceCountException released) {
                // Released by close(): built() now says so.
            }
        }
    }

    private synchronized SslContext built() {
        if (closed) {
            throw new IllegalStateException("the client is closed");
        }
        if (context == null) {
            context = build();
        }
        return context;
    }

    private SslContext build() {
        SslProvider provider = SslProviders.preferred();
        SslContextBuilder builder = SslContextBuilder.forClient()
                .sslProvider(provider == SslProvider.OPENSSL ? SslProvider.OPENSSL_REFCNT : provider);
        if (!options.verify()) {
            builder.trustManager(InsecureTrustManagerFactory.INSTANCE);
        } else if (options.caBundle() != null) {
            builder.trustManager(options.caBundle().toFile());
        }
        if (options.certificateChain() != null) {
            builder.keyManager(
                    options.certificateChain().toFile(), options.privateKey().toFile());
        }
        List<String> protocols = offersH2
                ? List.of(ApplicationProtocolNames.HTTP_2, ApplicationProtocolNames.HTTP_1_1)
                : List.of(ApplicationProtocolNames.HTTP_1_1);
        builder.applicationProtocolConfig(new ApplicationProtocolConfig(
                ApplicationProtocolConfig.Protocol.ALPN,
                ApplicationProtocolConfig.SelectorFailureBehavior.NO_ADVERTISE,
                ApplicationProtocolConfig.SelectedListenerFailureBehavior.ACCEPT,
                protocols));
        if (offersH2) {
            // RFC 9113, section 9.2.2: HTTP/2 over TLS must not use the listed weak cipher suites.
            builder.ciphers(Http2SecurityUtil.CIPHERS, SupportedCipherSuiteFilter.INSTANCE);
        }
        try {
            SslContext context = builder.build();
            HandshakeBuffer.configure(context);
            log.debug("Client TLS through {} (verify {}, ALPN {})", provider, options.verify(), protocols);
            return context;
        } catch (SSLException e) {
            throw new UncheckedIOException(
                    new IOException("cannot build the client's TLS context: " + e.getMessage(), e));
        } catch (IllegalArgumentException e) {
            throw new UncheckedIOException(new IOException("cannot read the client's TLS files: " + e.getMessage(), e));
        }
    }
}
