package io.parry.transport.spi.tls;

import io.netty.handler.ssl.ApplicationProtocolConfig;
import io.netty.handler.ssl.SslContext;
import io.netty.handler.ssl.SslContextBuilder;
import io.netty.handler.ssl.SslProvider;
import io.netty.handler.ssl.SupportedCipherSuiteFilter;
import io.netty.util.IllegalReferenceCountException;
import io.netty.util.ReferenceCountUtil;
import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.security.cert.CertificateException;
import java.security.cert.X509Certificate;
import java.util.List;
import java.util.Locale;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The SSL contexts of one TLS listener, one per certificate, chosen by the name a client asks for
 * (SNI) and rebuilt when a certificate's files change.
 *
 * <p>{@link #acquire(String)} is called on event loops for each new connection and reads a volatile
 * array; {@link #reloadChanged()} runs off the event loops (it reads files) and swaps in a new array.
 * A connection keeps the context it was given. A certificate whose new files do not load keeps its
 * old context, and the failure is logged once per change of the files.
 *
 * <p>OpenSSL contexts are reference counted ({@link SslProvider#OPENSSL_REFCNT}): their native memory is freed when
 * the last reference goes, not by a finalizer. These contexts hold one reference to each current context, given up
 * when a reload replaces it and on {@link #close()}; each connection's engine holds one of its own until the
 * connection ends, so connections in flight keep theirs. A JDK context is not counted.
 */
public final class ServerSslContexts implements AutoCloseable {
    private static final Logger log = LoggerFactory.getLogger(ServerSslContexts.class);

    private final ServerTlsSpec spec;
    /** The current certificates; {@code null} once closed. */
    private volatile ServerCertificate[] certificates;
    /** The versions that last failed to load, per certificate, so each bad change is logged once. */
    private final long[] failedVersions;

    private ServerSslContexts(ServerTlsSpec spec, ServerCertificate[] certificates) {
        this.spec = spec;
        this.certificates = certificates;
        this.failedVersions = new long[certificates.length];
    }

    /**
     * Loads every certificate now.
     *
     * @throws IllegalArgumentException naming the certificate that does not load
     */
    public static ServerSslContexts load(ServerTlsSpec spec) {
        List<CertifiedKey> sources = spec.certificates();
        ServerCertificate[] loaded = new ServerCertificate[sources.size()];
        for (int i = 0; i < loaded.length; i++) {
            try {
                loaded[i] = build(spec, sources.get(i));
            } catch (IOException | CertificateException | RuntimeException e) {
                release(loaded);
                throw new IllegalArgumentException(
                        "certificate " + sources.get(i).chain() + " with key "
                                + sources.get(i).key() + " does not load: " + e.getMessage(),
                        e);
            }
        }
        return new ServerSslContexts(spec, loaded);
    }

    /**
     * The certificate for a new connection whose client asked for {@code hostname} (SNI; {@code null} when it named
     * none), as {@link #select} chooses it, with a reference to its context taken for the caller, who gives it up
     * ({@link ReferenceCountUtil#release}) once the connection's engine is made (the engine holds its own); {@code
     * null} once these contexts are closed. Lock-free: a context a reload released meanwhile is skipped for its
     * successor, which the reload published before releasing it.
     */
    public ServerCertificate acquire(String hostname) {
        for (ServerCertificate[] current = certificates; current != null; current = certificates) {
            ServerCertificate certificate = select(current, hostname);
            try {
                ReferenceCountUtil.retain(certificate.context());
                return certificate;
            } catch (IllegalReferenceCountException released) {
                // Released by a reload or close that published its array first: read it again.
            }
        }
        return null;
    }

    /**
     * The certificate for a connection whose client asked for {@code hostname} (SNI; {@code null} when
     * it named none): the first whose names cover it, else the first certificate. Its context may be released
     * by a reload at any time: a connection takes it with {@link #acquire}.
     *
     * @throws IllegalStateException once closed
     */
    public ServerCertificate select(String hostname) {
        ServerCertificate[] current = certificates;
        if (current == null) {
            throw new IllegalStateException("closed");
        }
        return select(current, hostname);
    }

    private static ServerCertificate select(ServerCertificate[] current, String hostname) {
        if (hostname != null && current.length > 1) {
            for (ServerCertificate certificate : current) {
                if (certificate.covers(hostname)) {
                    return certificate;
                }
            }
        }
        return current[0];
    }

    /** Whether the listener has more than one certificate, so a request's host must match its connection's. */
    public boolean isMultiple() {
        return spec.certificates().size() > 1;
    }

    /** Whether any certificate comes from files, which {@link #reloadChanged()} watches. */
    public boolean hasFiles() {
        for (CertifiedKey source : spec.certificates()) {
            if (source.chain() instanceof PemSource.File || source.key() instanceof PemSource.File) {
                return true;
            }
        }
        return false;
    }

    /**
     * Rebuilds the context of each certificate whose files changed since they were loaded, and releases the
     * contexts it replaced. Blocks on file reads: call it off the event loops. Does nothing once closed.
     *
     * @return how many certificates were reloaded
     */
    public synchronized int reloadChanged() {
        ServerCertificate[] previous = certificates;
        if (previous == null) {
            return 0;
        }
        ServerCertificate[] next = previous.clone();
        int reloaded = 0;
        List<CertifiedKey> sources = spec.certificates();
        for (int i = 0; i < next.length; i++) {
            CertifiedKey source = sources.get(i);
            long version = source.version();
            if (version == next[i].version || version == failedVersions[i]) {
                continue;
            }
            try {
                next[i] = build(spec, source);
                reloaded++;
                log.info("Reloaded certificate {} for {}", source.chain(), next[i].names());
            } catch (IOException | CertificateException | RuntimeException e) {
                failedVersions[i] = version;
                log.warn(
                        "Keeping the previous certificate: {} with key {} does not load: {}",
                        source.chain(),
                        source.key(),
                        e.toString());
            }
        }
        if (reloaded > 0) {
            certificates = next;
            for (int i = 0; i < next.length; i++) {
                if (next[i] != previous[i]) {
                    ReferenceCountUtil.release(previous[i].context());
                }
            }
        }
        return reloaded;
    }

    /**
     * Gives up these contexts' references: each context's native memory is freed once the connections that use it
     * have ended. New connections get none ({@link #acquire} answers {@code null}). Idempotent.
     */
    @Override
    public synchronized void close() {
        ServerCertificate[] last = certificates;
        certificates = null;
        if (last != null) {
            release(last);
        }
    }

    private static void release(ServerCertificate[] certificates) {
        for (ServerCertificate certificate : certificates) {
            if (certificate != null) {
                ReferenceCountUtil.release(certificate.context());
            }
        }
    }

    private static ServerCertificate build(ServerTlsSpec spec, CertifiedKey source)
            throws IOException, CertificateException {
        // The version is read before the files, so a change made while they are read is seen next time.
        long version = source.version();
        byte[] chain = source.chain().read();
        byte[] key = source.key().read();
        X509Certificate leaf = KeyMatch.leafMatching(chain, key);
        SslContextBuilder builder = SslContextBuilder.forServer(stream(chain), stream(key))
                .sslProvider(counted(spec.provider() != null ? spec.provider() : SslProviders.preferred()))
                .protocols(spec.protocols())
                .ciphers(spec.ciphers(), SupportedCipherSuiteFilter.INSTANCE)
                .clientAuth(spec.clientAuth());
        if (spec.trusted() != null) {
            builder.trustManager(stream(spec.trusted().read()));
        }
        if (!spec.applicationProtocols().isEmpty()) {
            builder.applicationProtocolConfig(new ApplicationProtocolConfig(
                    ApplicationProtocolConfig.Protocol.ALPN,
                    // Both providers support these; a client offering none of ours gets the first.
                    ApplicationProtocolConfig.SelectorFailureBehavior.NO_ADVERTISE,
                    ApplicationProtocolConfig.SelectedListenerFailureBehavior.ACCEPT,
                    spec.applicationProtocols()));
        }
        SslContext context = builder.build();
        SessionCache.configure(context, spec.protocols());
        HandshakeBuffer.configure(context);
        return new ServerCertificate(context, leaf, version);
    }

    /**
     * OpenSSL's reference-counted contexts, freed when the last connection that uses one ends: Netty's other OpenSSL
     * context is freed by a finalizer, some collections after it became unreachable, and native objects it shares
     * with its connections (a BoringSSL credential) are then reported as leaks, as the leak detector's weak reference
     * to them is cleared before the finalizer runs.
     */
    private static SslProvider counted(SslProvider provider) {
        return provider == SslProvider.OPENSSL ? SslProvider.OPENSSL_REFCNT : provider;
    }

    private static InputStream stream(byte[] bytes) {
        return new ByteArrayInputStream(bytes);
    }

    @Override
    public String toString() {
        ServerCertificate[] current = certificates;
        return current == null
                ? "ServerSslContexts[closed]"
                : "ServerSslContexts" + List.of(current).toString().toLowerCase(Locale.ROOT);
    }
}
