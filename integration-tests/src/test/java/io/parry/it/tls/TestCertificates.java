package io.parry.it.tls;

import io.parry.server.TlsCertificate;
import java.math.BigInteger;
import java.net.Socket;
import java.security.GeneralSecurityException;
import java.security.KeyPair;
import java.security.KeyPairGenerator;
import java.security.KeyStore;
import java.security.Principal;
import java.security.PrivateKey;
import java.security.SecureRandom;
import java.security.cert.X509Certificate;
import java.security.spec.ECGenParameterSpec;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.Base64;
import java.util.Date;
import java.util.concurrent.atomic.AtomicLong;
import javax.net.ssl.KeyManager;
import javax.net.ssl.KeyManagerFactory;
import javax.net.ssl.SSLContext;
import javax.net.ssl.SSLEngine;
import javax.net.ssl.TrustManagerFactory;
import javax.net.ssl.X509ExtendedKeyManager;
import org.bouncycastle.asn1.x500.X500Name;
import org.bouncycastle.asn1.x509.BasicConstraints;
import org.bouncycastle.asn1.x509.Extension;
import org.bouncycastle.asn1.x509.GeneralName;
import org.bouncycastle.asn1.x509.GeneralNames;
import org.bouncycastle.cert.jcajce.JcaX509CertificateConverter;
import org.bouncycastle.cert.jcajce.JcaX509v3CertificateBuilder;
import org.bouncycastle.operator.jcajce.JcaContentSignerBuilder;

/** Certificates made for a test run with BouncyCastle: a CA, and leaves it signs; no key is committed. */
final class TestCertificates {
    private static final AtomicLong SERIALS = new AtomicLong(System.currentTimeMillis());

    private TestCertificates() {}

    /** A key kind: RSA 2048 or EC P-256. */
    enum KeyKind {
        RSA,
        EC
    }

    /** A certificate with its key, and the CA that signed it. */
    record Issued(X509Certificate certificate, PrivateKey key, X509Certificate ca) {
        /** The chain (leaf, then CA) and the PKCS#8 key, as the server takes them. */
        TlsCertificate tls() {
            return TlsCertificate.ofPem(chainPem(), keyPem());
        }

        String chainPem() {
            return pem("CERTIFICATE", encoded(certificate)) + pem("CERTIFICATE", encoded(ca));
        }

        String keyPem() {
            return pem("PRIVATE KEY", key.getEncoded());
        }

        String caPem() {
            return pem("CERTIFICATE", encoded(ca));
        }
    }

    /** A CA: its certificate and key. */
    record Authority(X509Certificate certificate, PrivateKey key) {
        /** A leaf for these DNS names and IP addresses, signed by this CA. */
        Issued issue(KeyKind kind, String... names) {
            KeyPair pair = keyPair(kind);
            X509Certificate leaf =
                    build(certificate.getSubjectX500Principal().getName(), key, "CN=" + names[0], pair, false, names);
            return new Issued(leaf, pair.getPrivate(), certificate);
        }

        String pemText() {
            return pem("CERTIFICATE", encoded(certificate));
        }

        /** A client TLS context that trusts this CA, with {@code client}'s certificate when not null. */
        SSLContext clientContext(Issued client) {
            try {
                KeyStore trust = KeyStore.getInstance("PKCS12");
                trust.load(null, null);
                trust.setCertificateEntry("ca", certificate);
                TrustManagerFactory trustManagers = TrustManagerFactory.getInstance("PKIX");
                trustManagers.init(trust);
                KeyManagerFactory keyManagers = null;
                if (client != null) {
                    KeyStore keys = KeyStore.getInstance("PKCS12");
                    keys.load(null, null);
                    keys.setKeyEntry("client", client.key(), new char[0], new java.security.cert.Certificate[] {
                        client.certificate(), client.ca()
                    });
                    keyManagers = KeyManagerFactory.getInstance("SunX509");
                    keyManagers.init(keys, new char[0]);
                }
                SSLContext context = SSLContext.getInstance("TLS");
                context.init(
                        keyManagers == null
                                ? null
                                : new KeyManager[] {
                                    new AlwaysSends(
                                            (X509ExtendedKeyManager) keyManagers.getKeyManagers()[0])
                                },
                        trustManagers.getTrustManagers(),
                        null);
                return context;
            } catch (Exception e) {
                throw new IllegalStateException(e);
            }
        }
    }

    /**
     * Sends the client certificate whatever CAs the server names, as a client with a certificate from
     * an unknown CA could; the JDK's own key manager would send none.
     */
    private static final class AlwaysSends extends X509ExtendedKeyManager {
        private final X509ExtendedKeyManager delegate;

        AlwaysSends(X509ExtendedKeyManager delegate) {
            this.delegate = delegate;
        }

        @Override
        public String chooseEngineClientAlias(String[] keyType, Principal[] issuers, SSLEngine engine) {
            return "client";
        }

        @Override
        public String chooseClientAlias(String[] keyType, Principal[] issuers, Socket socket) {
            return "client";
        }

        @Override
        public String[] getClientAliases(String keyType, Principal[] issuers) {
            return new String[] {"client"};
        }

        @Override
        public String[] getServerAliases(String keyType, Principal[] issuers) {
            return delegate.getServerAliases(keyType, issuers);
        }

        @Override
        public String chooseServerAlias(String keyType, Principal[] issuers, Socket socket) {
            return delegate.chooseServerAlias(keyType, issuers, socket);
        }

        @Override
        public X509Certificate[] getCertificateChain(String alias) {
            return delegate.getCertificateChain(alias);
        }

        @Override
        public PrivateKey getPrivateKey(String alias) {
            return delegate.getPrivateKey(alias);
        }
    }

    /** A new CA with an EC key. */
    static Authority authority(String name) {
        KeyPair pair = keyPair(KeyKind.EC);
        X509Certificate ca = build("CN=" + name, pair.getPrivate(), "CN=" + name, pair, true);
        return new Authority(ca, pair.getPrivate());
    }

    private static X509Certificate build(
            String issuer, PrivateKey issuerKey, String subject, KeyPair pair, boolean ca, String... names) {
        try {
            Instant now = Instant.now();
            JcaX509v3CertificateBuilder builder = new JcaX509v3CertificateBuilder(
                    new X500Name(issuer),
                    BigInteger.valueOf(SERIALS.incrementAndGet()),
                    Date.from(now.minus(1, ChronoUnit.HOURS)),
                    Date.from(now.plus(1, ChronoUnit.DAYS)),
                    new X500Name(subject),
                    pair.getPublic());
            builder.addExtension(Extension.basicConstraints, true, new BasicConstraints(ca));
            if (names.length > 0) {
                GeneralName[] alternatives = new GeneralName[names.length];
                for (int i = 0; i < names.length; i++) {
                    boolean ip = Character.isDigit(names[i].charAt(0)) || names[i].contains(":");
                    alternatives[i] = new GeneralName(ip ? GeneralName.iPAddress : GeneralName.dNSName, names[i]);
                }
                builder.addExtension(Extension.subjectAlternativeName, false, new GeneralNames(alternatives));
            }
            String algorithm = issuerKey.getAlgorithm().equals("RSA") ? "SHA256withRSA" : "SHA256withECDSA";
            return new JcaX509CertificateConverter()
                    .getCertificate(builder.build(new JcaContentSignerBuilder(algorithm).build(issuerKey)));
        } catch (Exception e) {
            throw new IllegalStateException(e);
        }
    }

    private static KeyPair keyPair(KeyKind kind) {
        try {
            KeyPairGenerator generator = KeyPairGenerator.getInstance(kind.name());
            if (kind == KeyKind.EC) {
                generator.initialize(new ECGenParameterSpec("secp256r1"));
            } else {
                generator.initialize(2048, new SecureRandom());
            }
            return generator.generateKeyPair();
        } catch (GeneralSecurityException e) {
            throw new IllegalStateException(e);
        }
    }

    private static byte[] encoded(X509Certificate certificate) {
        try {
            return certificate.getEncoded();
        } catch (GeneralSecurityException e) {
            throw new IllegalStateException(e);
        }
    }

    static String pem(String type, byte[] der) {
        return "-----BEGIN " + type + "-----\n"
                + Base64.getMimeEncoder(64, "\n".getBytes()).encodeToString(der)
                + "\n-----END " + type + "-----\n";
    }
}
