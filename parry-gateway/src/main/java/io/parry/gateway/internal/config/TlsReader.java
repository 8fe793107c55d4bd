package io.parry.gateway.internal.config;

import io.parry.server.TlsCertificate;
import io.parry.server.TlsOptions;
import io.parry.transport.spi.tls.CertifiedKey;
import io.parry.transport.spi.tls.PemSource;
import java.io.IOException;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.security.cert.CertificateException;
import java.util.List;
import java.util.Locale;

/**
 * Reads a listener's {@code tls}: {@code certificates} (each a PEM {@code chain} and PKCS#8 {@code key}
 * file), {@code protocols}, {@code clientAuth} ({@code none}, {@code optional}, {@code require}),
 * {@code ca} (the client certificates' CAs), {@code handshakeTimeout} and {@code reloadInterval}. When the
 * configuration is read from its file, each certificate and key are loaded and checked against each other (so
 * {@code --check} and a reload report a file that does not load at its line), and again when the listener
 * starts; paths are taken from the working directory.
 */
final class TlsReader {
    static final String KEY = "tls";
    static final List<String> KEYS =
            List.of("certificates", "protocols", "clientAuth", "ca", "handshakeTimeout", "reloadInterval");
    static final List<String> CERTIFICATE_KEYS = List.of("chain", "key");
    private static final List<String> CLIENT_AUTH = List.of("none", "optional", "require");

    private TlsReader() {}

    /**
     * The listener's TLS, or {@code null} when the section is absent or wrong; {@code loadFiles} says whether to load
     * and check each certificate and key now.
     */
    static TlsOptions read(Section listener, boolean loadFiles) {
        Section section = listener.section(KEY, listener.context() + " tls", KEYS);
        if (section == null) {
            return null;
        }
        int errorsBefore = section.errors().count();
        TlsOptions defaults = TlsOptions.of(TlsCertificate.ofPem("", ""));
        TlsOptions.Builder tls = TlsOptions.builder();
        YamlList certificates = section.list("certificates", "a list of { chain, key } files");
        if (certificates == null || certificates.items().isEmpty()) {
            section.missing("certificates", "a list of { chain: file, key: file } with at least one entry");
        } else {
            for (YamlNode item : certificates.items()) {
                Section certificate =
                        Section.of(item, "certificates", "a tls certificate", section.errors(), CERTIFICATE_KEYS);
                if (certificate != null) {
                    Path chain = file(certificate, "chain");
                    Path key = file(certificate, "key");
                    if (chain != null && key != null && (!loadFiles || loads(certificate, chain, key))) {
                        tls.certificate(TlsCertificate.ofFiles(chain, key));
                    }
                }
            }
        }
        if (section.has("protocols")) {
            tls.protocols(section.strings("protocols", "TLSv1.2 or TLSv1.3").toArray(String[]::new));
        }
        String clientAuth = section.string("clientAuth", "none");
        if (CLIENT_AUTH.contains(clientAuth)) {
            tls.clientAuth(TlsOptions.ClientAuth.valueOf(clientAuth.toUpperCase(Locale.ROOT)));
        } else {
            section.invalid(
                    "clientAuth", "'clientAuth' must be one of none, optional, require, got '" + clientAuth + "'");
        }
        if (section.has("ca")) {
            Path ca = file(section, "ca");
            if (ca != null) {
                tls.clientCa(ca);
            }
        }
        tls.handshakeTimeout(section.positiveDuration("handshakeTimeout", defaults.handshakeTimeout()))
                .reloadInterval(section.duration("reloadInterval", defaults.reloadInterval()));
        return section.build(errorsBefore, tls::build, null);
    }

    /**
     * Whether the pair loads as the listener will load it (readable, parsed, the key the certificate's), so a
     * configuration check or reload reports a bad file at its line rather than the listener failing later.
     */
    private static boolean loads(Section certificate, Path chain, Path key) {
        try {
            new CertifiedKey(new PemSource.File(chain), new PemSource.File(key)).check();
            return true;
        } catch (IOException | CertificateException e) {
            certificate.invalid(
                    "chain",
                    "certificate " + chain + " with key " + key + " does not load: "
                            + (e instanceof NoSuchFileException ? "no such file " + e.getMessage() : e.getMessage()));
            return false;
        }
    }

    /** The file named under the key, or {@code null} after an error. */
    private static Path file(Section section, String key) {
        String name = section.requiredString(key, "a PEM file");
        if (name == null) {
            return null;
        }
        if (name.isBlank() || GatewayConfigReader.hasSpaceOrControl(name.strip())) {
            section.invalid(key, "'" + key + "' must name a PEM file, got '" + name + "'");
            return null;
        }
        return Path.of(name);
    }
}
