package io.parry.gateway.internal.demo;

import io.parry.server.TlsCertificate;
import java.math.BigInteger;
import java.security.GeneralSecurityException;
import java.security.KeyPair;
import java.security.KeyPairGenerator;
import java.security.MessageDigest;
import java.security.cert.X509Certificate;
import java.security.spec.ECGenParameterSpec;
import java.time.Duration;
import java.time.Instant;
import java.util.Base64;
import java.util.Date;
import java.util.HexFormat;
import org.bouncycastle.asn1.x500.X500Name;
import org.bouncycastle.asn1.x509.BasicConstraints;
import org.bouncycastle.asn1.x509.Extension;
import org.bouncycastle.asn1.x509.GeneralName;
import org.bouncycastle.asn1.x509.GeneralNames;
import org.bouncycastle.cert.jcajce.JcaX509CertificateConverter;
import org.bouncycastle.cert.jcajce.JcaX509v3CertificateBuilder;
import org.bouncycastle.operator.OperatorCreationException;
import org.bouncycastle.operator.jcajce.JcaContentSignerBuilder;

/**
 * The demo's HTTPS certificate: self-signed, EC P-256, for {@code localhost}, {@code 127.0.0.1} and
 * {@code ::1}, made at start with BouncyCastle and valid for 30 days. Clients will not trust it; its
 * SHA-256 fingerprint, printed at start, lets a person check it.
 */
public record DemoCertificate(TlsCertificate tls, String fingerprint) {
    private static final Duration VALIDITY = Duration.ofDays(30);

    /** A new key pair and certificate. */
    public static DemoCertificate generate() {
        try {
            KeyPairGenerator generator = KeyPairGenerator.getInstance("EC");
            generator.initialize(new ECGenParameterSpec("secp256r1"));
            KeyPair pair = generator.generateKeyPair();
            Instant now = Instant.now();
            X500Name name = new X500Name("CN=localhost");
            JcaX509v3CertificateBuilder builder = new JcaX509v3CertificateBuilder(
                    name,
                    BigInteger.valueOf(now.toEpochMilli()),
                    Date.from(now.minus(Duration.ofHours(1))),
                    Date.from(now.plus(VALIDITY)),
                    name,
                    pair.getPublic());
            builder.addExtension(Extension.basicConstraints, true, new BasicConstraints(false));
            builder.addExtension(Extension.subjectAlternativeName, false, new GeneralNames(new GeneralName[] {
                new GeneralName(GeneralName.dNSName, "localhost"),
                new GeneralName(GeneralName.iPAddress, "127.0.0.1"),
                new GeneralName(GeneralName.iPAddress, "::1")
            }));
            X509Certificate certificate = new JcaX509CertificateConverter()
                    .getCertificate(
                            builder.build(new JcaContentSignerBuilder("SHA256withECDSA").build(pair.getPrivate())));
            byte[] der = certificate.getEncoded();
            return new DemoCertificate(
                    TlsCertificate.ofPem(
                            pem("CERTIFICATE", der),
                            pem("PRIVATE KEY", pair.getPrivate().getEncoded())),
                    HexFormat.ofDelimiter(":")
                            .withUpperCase()
                            .formatHex(MessageDigest.getInstance("SHA-256").digest(der)));
        } catch (GeneralSecurityException | OperatorCreationException | java.io.IOException e) {
            throw new IllegalStateException("cannot make the demo's certificate", e);
        }
    }

    private static String pem(String type, byte[] der) {
        return "-----BEGIN " + type + "-----\n"
                + Base64.getMimeEncoder(64, new byte[] {'\n'}).encodeToString(der) + "\n-----END " + type + "-----\n";
    }
}
