package io.parry.transport.spi.tls;

import static java.util.Objects.requireNonNull;

import java.io.IOException;
import java.security.cert.CertificateException;

/** A certificate chain (leaf first) and its PKCS#8 private key, RSA or EC, both PEM. */
public record CertifiedKey(PemSource chain, PemSource key) {
    public CertifiedKey {
        requireNonNull(chain, "chain");
        requireNonNull(key, "key");
    }

    /**
     * Reads both and checks them as a listener would load them: the chain holds a certificate and the key is its
     * own. Reads files: call it off the event loop.
     *
     * @throws IOException when a file cannot be read
     * @throws CertificateException when the chain or key does not parse, or the key does not match
     */
    public void check() throws IOException, CertificateException {
        KeyMatch.leafMatching(chain.read(), key.read());
    }

    /** The sources' modification times together; a change in either means reload. */
    long version() {
        return chain.lastModified() * 31 + key.lastModified();
    }
}
