package io.parry.client;

import java.io.IOException;
import java.io.Writer;
import java.math.BigInteger;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.GeneralSecurityException;
import java.security.KeyPair;
import java.security.KeyPairGenerator;
import java.security.cert.X509Certificate;
import java.security.spec.ECGenParameterSpec;
import java.time.Duration;
import java.time.Instant;
import java.util.Date;
import org.bouncycastle.asn1.x500.X500Name;
import org.bouncycastle.asn1.x509.BasicConstraints;
import org.bouncycastle.asn1.x509.Extension;
import org.bouncycastle.asn1.x509.GeneralName;
import org.bouncycastle.asn1.x509.GeneralNames;
import org.bouncycastle.cert.X509v3CertificateBuilder;
import org.bouncycastle.cert.jcajce.JcaX509CertificateConverter;
import org.bouncycastle.cert.jcajce.JcaX509v3CertificateBuilder;
import org.bouncycastle.openssl.jcajce.JcaPEMWriter;
import org.bouncycastle.openssl.jcajce.JcaPKCS8Generator;
import org.bouncycastle.operator.OperatorCreationException;
import org.bouncycastle.operator.jcajce.JcaContentSignerBuilder;

/**
 * A certificate authority made for one test run with BouncyCastle (EC P-256), and the PEM files of
 * the certificates it issues: nothing secret is committed, and every run has new keys.
 */
final class TestPki {
    private final Path dir;
    private final String caName;
    private final KeyPair caKeys;
    private final X509Certificate caCertificate;
    private long serial = 1;

    /** A certificate chain and its PKCS#8 key, as PEM files. */
    record Issued(Path chain, Path key) {}

    private TestPki(Path dir, String caName) throws GeneralSecurityException, OperatorCreationException {
        this.dir = dir;
        this.caName = caName;
        this.caKeys = keys();
        this.caCertificate = sign(new X500Name("CN=" + caName), caKeys, true, null);
    }

    static TestPki create(Path dir, String caName) {
        try {
            return new TestPki(dir, caName);
        } catch (GeneralSecurityException | OperatorCreationException e) {
            throw new IllegalStateException(e);
        }
    }

    /** The authority's certificate as a PEM file, to trust. */
    Path caFile() {
        return write(caName + "-ca.pem", caCertificate);
    }

    /** A certificate for {@code localhost} and {@code 127.0.0.1} (or the given DNS names). */
    Issued issue(String name, String... dnsNames) {
        try {
            KeyPair keys = keys();
            GeneralName[] alternatives = new GeneralName[dnsNames.length + 1];
            alternatives[0] = new GeneralName(GeneralName.iPAddress, "127.0.0.1");
            for (int i = 0; i < dnsNames.length; i++) {
                alternatives[i + 1] = new GeneralName(GeneralName.dNSName, dnsNames[i]);
            }
            X509Certificate certificate = sign(new X500Name("CN=" + name), keys, false, new GeneralNames(alternatives));
            Path chain = write(name + ".pem", certificate);
            Path key = write(name + "-key.pem", new JcaPKCS8Generator(keys.getPrivate(), null));
            return new Issued(chain, key);
        } catch (GeneralSecurityException | OperatorCreationException | IOException e) {
            throw new IllegalStateException(e);
        }
    }

    private X509Certificate sign(X500Name subject, KeyPair keys, boolean ca, GeneralNames names)
            throws GeneralSecurityException, OperatorCreationException {
        Instant now = Instant.now();
        X509v3CertificateBuilder builder = new JcaX509v3CertificateBuilder(
                ca ? subject : new X500Name("CN=" + caName),
                BigInteger.valueOf(serial++),
                Date.from(now.minus(Duration.ofHours(1))),
                Date.from(now.plus(Duration.ofDays(1))),
                subject,
                keys.getPublic());
        try {
            builder.addExtension(Extension.basicConstraints, true, new BasicConstraints(ca));
            if (names != null) {
                builder.addExtension(Extension.subjectAlternativeName, false, names);
            }
        } catch (IOException e) {
            throw new IllegalStateException(e);
        }
        return new JcaX509CertificateConverter()
                .getCertificate(
                        builder.build(new JcaContentSignerBuilder("SHA256withECDSA").build(caKeys.getPrivate())));
    }

    private static KeyPair keys() throws GeneralSecurityException {
        KeyPairGenerator generator = KeyPairGenerator.getInstance("EC");
        generator.initialize(new ECGenParameterSpec("secp256r1"));
        return generator.generateKeyPair();
    }

    private Path write(String name, Object pemObject) {
        Path file = dir.resolve(name);
        try (Writer out = Files.newBufferedWriter(file);
                JcaPEMWriter pem = new JcaPEMWriter(out)) {
            pem.writeObject(pemObject);
        } catch (IOException e) {
            throw new IllegalStateException(e);
        }
        return file;
    }
}
