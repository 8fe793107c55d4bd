package io.parry.transport.spi.tls;

import static java.util.Objects.requireNonNull;

/** A certificate chain (leaf first) and its PKCS#8 private key, RSA or EC, both PEM. */
public record CertifiedKey(PemSource chain, PemSource key) {
    public CertifiedKey {
        requireNonNull(chain, "chain");
        requireNonNull(key, "key");
    }

    /** The sources' modification times together; a change in either means reload. */
    long version() {
        return chain.lastModified() * 31 + key.lastModified();
    }
}
