package io.parry.client;

import static java.util.Objects.requireNonNull;

import java.nio.file.Path;
import java.util.Arrays;

/**
 * How a client speaks TLS to {@linkplain Endpoint#secure() secure endpoints}.
 *
 * <ul>
 *   <li>{@code verify}: whether the endpoint's certificate chain and name are checked (default true);
 *       off only for tests and trusted networks, as it lets anyone on the path read the traffic;
 *   <li>{@code caBundle}: a PEM file of the certificate authorities to trust (default: none, the JDK's
 *       system trust store);
 *   <li>{@code sniName}: the server name sent in SNI and checked against the certificate (default:
 *       none, the endpoint's host; an IP address sends no SNI, RFC 6066 section 3, and is checked
 *       against the certificate's IP addresses);
 *   <li>{@code clientCertificate}: a PEM certificate chain and its PKCS#8 PEM key, presented when the
 *       endpoint asks for one (mTLS; default: none).
 * </ul>
 *
 * OpenSSL (BoringSSL through {@code netty-tcnative-boringssl-static}) is used when it is on the class
 * path and loads, the JDK's provider otherwise. The files are read when the client first connects to a
 * secure endpoint; a file that cannot be read fails those calls with {@link UpstreamConnectException}.
 */
public final class ClientTlsOptions {
    private static final ClientTlsOptions DEFAULTS = builder().build();

    private final boolean verify;
    private final Path caBundle;
    private final String sniName;
    private final Path certificateChain;
    private final Path privateKey;

    private ClientTlsOptions(Builder builder) {
        this.verify = builder.verify;
        this.caBundle = builder.caBundle;
        this.sniName = builder.sniName;
        this.certificateChain = builder.certificateChain;
        this.privateKey = builder.privateKey;
    }

    /** The defaults: verification against the system's trust store, no client certificate. */
    public static ClientTlsOptions ofDefault() {
        return DEFAULTS;
    }

    /** A builder starting from the defaults. */
    public static Builder builder() {
        return new Builder();
    }

    /** A builder starting from these options. */
    public Builder toBuilder() {
        Builder builder = new Builder().verify(verify);
        builder.caBundle = caBundle;
        builder.sniName = sniName;
        builder.certificateChain = certificateChain;
        builder.privateKey = privateKey;
        return builder;
    }

    /** Whether the endpoint's certificate and name are checked. */
    public boolean verify() {
        return verify;
    }

    /** The PEM file of trusted certificate authorities, or {@code null} for the system's trust store. */
    public Path caBundle() {
        return caBundle;
    }

    /** The server name sent in SNI and verified, or {@code null} for the endpoint's host. */
    public String sniName() {
        return sniName;
    }

    /** The PEM certificate chain presented to endpoints, or {@code null}. */
    public Path certificateChain() {
        return certificateChain;
    }

    /** The PKCS#8 PEM key of {@link #certificateChain()}, or {@code null}. */
    public Path privateKey() {
        return privateKey;
    }

    @Override
    public boolean equals(Object other) {
        return other instanceof ClientTlsOptions that && Arrays.equals(values(), that.values());
    }

    @Override
    public int hashCode() {
        return Arrays.hashCode(values());
    }

    @Override
    public String toString() {
        return "ClientTlsOptions{verify=" + verify + ", caBundle=" + caBundle + ", sniName=" + sniName
                + ", certificateChain=" + certificateChain + ", privateKey=" + (privateKey == null ? null : "(set)")
                + "}";
    }

    private Object[] values() {
        return new Object[] {verify, caBundle, sniName, certificateChain, privateKey};
    }

    /** Builds {@link ClientTlsOptions}; not thread-safe. */
    public static final class Builder {
        private boolean verify = true;
        private Path caBundle;
        private String sniName;
        private Path certificateChain;
        private Path privateKey;

        private Builder() {}

        /** Whether the endpoint's certificate chain and name are checked (default true). */
        public Builder verify(boolean verify) {
            this.verify = verify;
            return this;
        }

        /** Trusts the certificate authorities of this PEM file instead of the system's trust store. */
        public Builder caBundle(Path pemFile) {
            this.caBundle = requireNonNull(pemFile, "pemFile");
            return this;
        }

        /** Sends this name in SNI and checks the certificate against it instead of the endpoint's host. */
        public Builder sniName(String name) {
            this.sniName = requireNonNull(name, "name");
            return this;
        }

        /** Presents this PEM certificate chain, with its PKCS#8 PEM private key, when an endpoint asks. */
        public Builder clientCertificate(Path chainPemFile, Path keyPemFile) {
            this.certificateChain = requireNonNull(chainPemFile, "chainPemFile");
            this.privateKey = requireNonNull(keyPemFile, "keyPemFile");
            return this;
        }

        /**
         * The options.
         *
         * @throws IllegalArgumentException if the SNI name is blank
         */
        public ClientTlsOptions build() {
            if (sniName != null && sniName.isBlank()) {
                throw new IllegalArgumentException("sniName: blank (expected: a host name)");
            }
            return new ClientTlsOptions(this);
        }
    }
}
