package io.parry.server;

import static java.util.Objects.requireNonNull;

import java.security.cert.X509Certificate;
import java.util.List;
import java.util.Optional;

/**
 * What the TLS handshake of a request's connection settled, for handlers ({@link RequestContext#tls()}):
 * the protocol, the cipher suite, the host name the client asked for (SNI), the ALPN protocol, and the
 * client's certificate chain when it sent one the server verified (mTLS). Immutable; one per
 * connection.
 */
public final class TlsInfo {
    private final String protocol;
    private final String cipherSuite;
    private final String serverName;
    private final String applicationProtocol;
    private final List<X509Certificate> peerCertificates;

    private TlsInfo(
            String protocol,
            String cipherSuite,
            String serverName,
            String applicationProtocol,
            List<X509Certificate> peerCertificates) {
        this.protocol = protocol;
        this.cipherSuite = cipherSuite;
        this.serverName = serverName;
        this.applicationProtocol = applicationProtocol;
        this.peerCertificates = peerCertificates;
    }

    /**
     * The facts of one handshake; {@code serverName} is {@code null} when the client sent no SNI, and
     * {@code peerCertificates} empty when it sent no certificate.
     */
    public static TlsInfo of(
            String protocol,
            String cipherSuite,
            String serverName,
            String applicationProtocol,
            List<X509Certificate> peerCertificates) {
        return new TlsInfo(
                requireNonNull(protocol, "protocol"),
                requireNonNull(cipherSuite, "cipherSuite"),
                serverName,
                requireNonNull(applicationProtocol, "applicationProtocol"),
                List.copyOf(peerCertificates));
    }

    /** The TLS version, for example {@code TLSv1.3}. */
    public String protocol() {
        return protocol;
    }

    /** The cipher suite, by its IANA name, for example {@code TLS_AES_128_GCM_SHA256}. */
    public String cipherSuite() {
        return cipherSuite;
    }

    /** The host name the client asked for with SNI; empty when it named none. */
    public Optional<String> serverName() {
        return Optional.ofNullable(serverName);
    }

    /** The protocol ALPN chose, for example {@code http/1.1}. */
    public String applicationProtocol() {
        return applicationProtocol;
    }

    /** The client's verified certificate chain, its own first; empty when it sent none. */
    public List<X509Certificate> peerCertificates() {
        return peerCertificates;
    }

    @Override
    public String toString() {
        return "TlsInfo{" + protocol + ", " + cipherSuite + ", serverName=" + serverName + ", alpn="
                + applicationProtocol + ", peer="
                + (peerCertificates.isEmpty() ? "none" : peerCertificates.get(0).getSubjectX500Principal()) + "}";
    }
}
