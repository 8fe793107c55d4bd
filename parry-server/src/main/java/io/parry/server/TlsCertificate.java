package io.parry.server;

import static java.util.Objects.requireNonNull;

import java.nio.file.Path;
import java.util.Objects;
import java.util.Optional;

/**
 * A certificate a TLS listener serves: a PEM certificate chain (leaf first, then intermediates) and
 * its PEM PKCS#8 private key ({@code BEGIN PRIVATE KEY}), RSA or EC. From files, which the server
 * reloads when they change ({@link TlsOptions.Builder#reloadInterval}), or from PEM text in memory,
 * for tests and certificates made at start.
 *
 * <pre>{@code
 * TlsCertificate.ofFiles(Path.of("/etc/tls/fullchain.pem"), Path.of("/etc/tls/key.pem"))
 * }</pre>
 */
public final class TlsCertificate {
    private final Path chainFile;
    private final Path keyFile;
    private final String chainPem;
    private final String keyPem;

    private TlsCertificate(Path chainFile, Path keyFile, String chainPem, String keyPem) {
        this.chainFile = chainFile;
        this.keyFile = keyFile;
        this.chainPem = chainPem;
        this.keyPem = keyPem;
    }

    /** A certificate read from a chain file and a key file, both PEM. */
    public static TlsCertificate ofFiles(Path chain, Path key) {
        return new TlsCertificate(requireNonNull(chain, "chain"), requireNonNull(key, "key"), null, null);
    }

    /** A certificate from PEM text: the chain and the PKCS#8 key. */
    public static TlsCertificate ofPem(String chain, String key) {
        return new TlsCertificate(null, null, requireNonNull(chain, "chain"), requireNonNull(key, "key"));
    }

    /** The chain's file; empty for PEM in memory. */
    public Optional<Path> chainFile() {
        return Optional.ofNullable(chainFile);
    }

    /** The key's file; empty for PEM in memory. */
    public Optional<Path> keyFile() {
        return Optional.ofNullable(keyFile);
    }

    /** The chain's PEM text; empty when it is read from a file. */
    public Optional<String> chainPem() {
        return Optional.ofNullable(chainPem);
    }

    /** The key's PEM text; empty when it is read from a file. */
    public Optional<String> keyPem() {
        return Optional.ofNullable(keyPem);
    }

    @Override
    public boolean equals(Object other) {
        return other instanceof TlsCertificate that
                && Objects.equals(chainFile, that.chainFile)
                && Objects.equals(keyFile, that.keyFile)
                && Objects.equals(chainPem, that.chainPem)
                && Objects.equals(keyPem, that.keyPem);
    }

    @Override
    public int hashCode() {
        return Objects.hash(chainFile, keyFile, chainPem, keyPem);
    }

    /** Names the files, never the PEM text, which holds a private key. */
    @Override
    public String toString() {
        return chainFile != null
                ? "TlsCertificate{" + chainFile + ", " + keyFile + "}"
                : "TlsCertificate{PEM in memory}";
    }
}
