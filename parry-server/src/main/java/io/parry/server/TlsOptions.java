package io.parry.server;

import static java.util.Objects.requireNonNull;

import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Optional;
import java.util.Set;

/**
 * How a listener speaks TLS: its certificates, protocols, cipher suites, client authentication,
 * handshake timeout and certificate reload. Set with {@link ServerOptions.Builder#tls(TlsOptions)};
 * without it the listener is cleartext.
 *
 * <pre>{@code
 * TlsOptions tls = TlsOptions.builder()
 *         .certificate(TlsCertificate.ofFiles(Path.of("fullchain.pem"), Path.of("key.pem")))
 *         .build();
 * Server.builder().port(8443).options(o -> o.tls(tls)).handler(handler).build().start();
 * }</pre>
 *
 * <p>With several certificates the client's SNI name chooses (the first certificate when it names none
 * or an unknown host), and a request whose {@code Host} the connection's certificate does not cover is
 * answered 421 (RFC 9110, section 15.5.20). OpenSSL (BoringSSL, from {@code
 * netty-tcnative-boringssl-static}) is used when it loads, else the JDK's TLS; session resumption
 * (tickets and the session cache) is on. Handshake failures are counted as {@link
 * Rejection#TLS_HANDSHAKE} and logged at debug level.
 */
public final class TlsOptions {
    /** TLS 1.2 suites with forward secrecy and AEAD; TLS 1.3 suites as the protocol defines them. */
    private static final List<String> MODERN_CIPHERS = List.of(
            "TLS_AES_128_GCM_SHA256",
            "TLS_AES_256_GCM_SHA384",
            "TLS_CHACHA20_POLY1305_SHA256",
            "TLS_ECDHE_ECDSA_WITH_AES_128_GCM_SHA256",
            "TLS_ECDHE_RSA_WITH_AES_128_GCM_SHA256",
            "TLS_ECDHE_ECDSA_WITH_AES_256_GCM_SHA384",
            "TLS_ECDHE_RSA_WITH_AES_256_GCM_SHA384",
            "TLS_ECDHE_ECDSA_WITH_CHACHA20_POLY1305_SHA256",
            "TLS_ECDHE_RSA_WITH_CHACHA20_POLY1305_SHA256");

    private static final Set<String> KNOWN_PROTOCOLS = Set.of("TLSv1.2", "TLSv1.3");

    private final List<TlsCertificate> certificates;
    private final List<String> protocols;
    private final List<String> ciphers;
    private final ClientAuth clientAuth;
    private final Path clientCaFile;
    private final String clientCaPem;
    private final Duration handshakeTimeout;
    private final Duration reloadInterval;
    private final Provider provider;

    /** Whether the client must present a certificate. */
    public enum ClientAuth {
        /** No client certificate is asked for. */
        NONE,
        /** A certificate is asked for; a client may send none, but one it sends must verify. */
        OPTIONAL,
        /** A client without a certificate that verifies fails the handshake. */
        REQUIRE
    }

    /** Which TLS implementation serves the listener. */
    public enum Provider {
        /** OpenSSL when {@code netty-tcnative-boringssl-static} loads, else the JDK's. */
        AUTO,
        /** OpenSSL (BoringSSL); the listener fails to start when it does not load. */
        OPENSSL,
        /** The JDK's TLS. */
        JDK
    }

    private TlsOptions(Builder builder) {
        this.certificates = List.copyOf(builder.certificates);
        this.protocols = builder.protocols;
        this.ciphers = builder.ciphers;
        this.clientAuth = builder.clientAuth;
        this.clientCaFile = builder.clientCaFile;
        this.clientCaPem = builder.clientCaPem;
        this.handshakeTimeout = builder.handshakeTimeout;
        this.reloadInterval = builder.reloadInterval;
        this.provider = builder.provider;
    }

    /** A builder with the defaults and no certificate yet. */
    public static Builder builder() {
        return new Builder();
    }

    /** TLS options serving one certificate, with every other default. */
    public static TlsOptions of(TlsCertificate certificate) {
        return builder().certificate(certificate).build();
    }

    /** A builder starting from these options. */
    public Builder toBuilder() {
        Builder builder = new Builder()
                .certificates(certificates)
                .protocols(protocols.toArray(String[]::new))
                .ciphers(ciphers)
                .clientAuth(clientAuth)
                .handshakeTimeout(handshakeTimeout)
                .reloadInterval(reloadInterval)
                .provider(provider);
        builder.clientCaFile = clientCaFile;
        builder.clientCaPem = clientCaPem;
        return builder;
    }

    /** The certificates; the first is the default. */
    public List<TlsCertificate> certificates() {
        return certificates;
    }

    /** The TLS versions allowed (default {@code TLSv1.3}, {@code TLSv1.2}). */
    public List<String> protocols() {
        return protocols;
    }

    /** The cipher suites allowed, by IANA name (default: AEAD suites with forward secrecy). */
    public List<String> ciphers() {
        return ciphers;
    }

    /** Whether clients must present a certificate (default {@link ClientAuth#NONE}). */
    public ClientAuth clientAuth() {
        return clientAuth;
    }

    /** The PEM file of the CAs client certificates must chain to; empty when given as text or not at all. */
    public Optional<Path> clientCaFile() {
        return Optional.ofNullable(clientCaFile);
    }

    /** The PEM text of the CAs client certificates must chain to; empty when given as a file or not at all. */
    public Optional<String> clientCaPem() {
        return Optional.ofNullable(clientCaPem);
    }

    /** How long a client has, from connecting, to finish the handshake (default 10 s). */
    public Duration handshakeTimeout() {
        return handshakeTimeout;
    }

    /** How often certificate files are checked for changes (default 10 s; zero never). */
    public Duration reloadInterval() {
        return reloadInterval;
    }

    /** The TLS implementation (default {@link Provider#AUTO}). */
    public Provider provider() {
        return provider;
    }

    @Override
    public boolean equals(Object other) {
        return other instanceof TlsOptions that && Arrays.equals(values(), that.values());
    }

    @Override
    public int hashCode() {
        return Arrays.hashCode(values());
    }

    @Override
    public String toString() {
        return "TlsOptions{certificates=" + certificates + ", protocols=" + protocols + ", ciphers=" + ciphers
                + ", clientAuth=" + clientAuth + ", clientCa="
                + (clientCaFile != null ? clientCaFile : clientCaPem != null ? "PEM in memory" : "none")
                + ", handshakeTimeout=" + handshakeTimeout + ", reloadInterval=" + reloadInterval + ", provider="
                + provider + "}";
    }

    private Object[] values() {
        return new Object[] {
            certificates,
            protocols,
            ciphers,
            clientAuth,
            clientCaFile,
            clientCaPem,
            handshakeTimeout,
            reloadInterval,
            provider
        };
    }

    /** Builds {@link TlsOptions}; not thread-safe. */
    public static final class Builder {
        private final List<TlsCertificate> certificates = new ArrayList<>();
        private List<String> protocols = List.of("TLSv1.3", "TLSv1.2");
        private List<String> ciphers = MODERN_CIPHERS;
        private ClientAuth clientAuth = ClientAuth.NONE;
        private Path clientCaFile;
        private String clientCaPem;
        private Duration handshakeTimeout = Duration.ofSeconds(10);
        private Duration reloadInterval = Duration.ofSeconds(10);
        private Provider provider = Provider.AUTO;

        private Builder() {}

        /** Adds a certificate; the first added is the default, served when SNI chooses none. */
        public Builder certificate(TlsCertificate certificate) {
            certificates.add(requireNonNull(certificate, "certificate"));
            return this;
        }

        /** Replaces the certificates. */
        public Builder certificates(List<TlsCertificate> certificates) {
            this.certificates.clear();
            certificates.forEach(this::certificate);
            return this;
        }

        /** Sets the TLS versions allowed: {@code TLSv1.2} and {@code TLSv1.3}. */
        public Builder protocols(String... protocols) {
            this.protocols = List.of(protocols);
            return this;
        }

        /** Sets the cipher suites, by IANA name; suites the provider lacks are left out. */
        public Builder ciphers(List<String> ciphers) {
            this.ciphers = List.copyOf(ciphers);
            return this;
        }

        /** Sets whether clients must present a certificate; other than NONE it needs a CA ({@link #clientCa}). */
        public Builder clientAuth(ClientAuth clientAuth) {
            this.clientAuth = requireNonNull(clientAuth, "clientAuth");
            return this;
        }

        /** Sets the PEM file of the CAs that client certificates must chain to. */
        public Builder clientCa(Path caFile) {
            this.clientCaFile = requireNonNull(caFile, "caFile");
            this.clientCaPem = null;
            return this;
        }

        /** Sets the CAs that client certificates must chain to, as PEM text. */
        public Builder clientCaPem(String caPem) {
            this.clientCaPem = requireNonNull(caPem, "caPem");
            this.clientCaFile = null;
            return this;
        }

        /** Sets how long a client has, from connecting, to finish the handshake; then it is closed. */
        public Builder handshakeTimeout(Duration timeout) {
            this.handshakeTimeout = requireNonNull(timeout, "timeout");
            return this;
        }

        /**
         * Sets how often certificate files are checked for a new modification time; a changed
         * certificate is loaded for new connections (those open keep theirs), and one that does not load
         * is logged once and the previous one kept. Zero turns the check off.
         */
        public Builder reloadInterval(Duration interval) {
            this.reloadInterval = requireNonNull(interval, "interval");
            return this;
        }

        /** Sets the TLS implementation. */
        public Builder provider(Provider provider) {
            this.provider = requireNonNull(provider, "provider");
            return this;
        }

        /**
         * The options.
         *
         * @throws IllegalArgumentException without a certificate, with an unknown protocol, no cipher, a
         *     client authentication without CA, or a timeout that is not positive
         */
        public TlsOptions build() {
            if (certificates.isEmpty()) {
                throw new IllegalArgumentException("certificates: [] (expected: at least one)");
            }
            if (protocols.isEmpty() || !KNOWN_PROTOCOLS.containsAll(protocols)) {
                throw new IllegalArgumentException("protocols: " + protocols + " (expected: TLSv1.2, TLSv1.3 or both)");
            }
            if (ciphers.isEmpty()) {
                throw new IllegalArgumentException("ciphers: [] (expected: at least one)");
            }
            if (clientAuth != ClientAuth.NONE && clientCaFile == null && clientCaPem == null) {
                throw new IllegalArgumentException(
                        "clientCa: none (expected: the CAs of client certificates with clientAuth " + clientAuth + ")");
            }
            Validation.positive("handshakeTimeout", handshakeTimeout.toMillis());
            Validation.notNegative("reloadInterval", reloadInterval);
            return new TlsOptions(this);
        }
    }
}
