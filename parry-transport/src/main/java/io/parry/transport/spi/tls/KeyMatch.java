package io.parry.transport.spi.tls;

import java.io.ByteArrayInputStream;
import java.nio.charset.StandardCharsets;
import java.security.GeneralSecurityException;
import java.security.KeyFactory;
import java.security.PrivateKey;
import java.security.Signature;
import java.security.cert.CertificateException;
import java.security.cert.CertificateFactory;
import java.security.cert.X509Certificate;
import java.security.spec.PKCS8EncodedKeySpec;
import java.util.Base64;

/**
 * Checks that a PEM chain and a PEM PKCS#8 key belong together: the key signs, and the leaf certificate's public key
 * verifies the signature. Neither TLS provider checks this when a context is built (the JDK's key store takes any
 * pair), so a mismatch would otherwise surface only as failed handshakes.
 */
final class KeyMatch {
    private static final String BEGIN = "-----BEGIN PRIVATE KEY-----";
    private static final String END = "-----END PRIVATE KEY-----";
    private static final byte[] PROBE = "parry certificate and key check".getBytes(StandardCharsets.US_ASCII);

    private KeyMatch() {}

    /**
     * The leaf certificate of {@code chain}, after checking that {@code key} is its private key when the key is an
     * unencrypted PKCS#8 RSA or EC key (any other is left to the provider, which may read more formats).
     *
     * @throws CertificateException when the chain holds no certificate, or the key does not parse or is not the
     *     leaf's
     */
    static X509Certificate leafMatching(byte[] chain, byte[] key) throws CertificateException {
        var certificates =
                CertificateFactory.getInstance("X.509").generateCertificates(new ByteArrayInputStream(chain));
        if (certificates.isEmpty()) {
            throw new CertificateException("no certificate in the chain");
        }
        X509Certificate leaf = (X509Certificate) certificates.iterator().next();
        String algorithm = leaf.getPublicKey().getAlgorithm();
        byte[] der = der(key);
        if (der == null || !(algorithm.equals("RSA") || algorithm.equals("EC"))) {
            return leaf;
        }
        boolean matches;
        try {
            PrivateKey privateKey = KeyFactory.getInstance(algorithm).generatePrivate(new PKCS8EncodedKeySpec(der));
            String signing = algorithm.equals("EC") ? "SHA256withECDSA" : "SHA256withRSA";
            Signature signer = Signature.getInstance(signing);
            signer.initSign(privateKey);
            signer.update(PROBE);
            byte[] signature = signer.sign();
            Signature verifier = Signature.getInstance(signing);
            verifier.initVerify(leaf.getPublicKey());
            verifier.update(PROBE);
            matches = verifier.verify(signature);
        } catch (GeneralSecurityException | IllegalArgumentException e) {
            throw new CertificateException("the key is not a PKCS#8 " + algorithm + " key: " + e.getMessage(), e);
        }
        if (!matches) {
            throw new CertificateException("the key does not match the certificate "
                    + leaf.getSubjectX500Principal().getName());
        }
        return leaf;
    }

    /** The DER bytes of the first unencrypted PKCS#8 block, or {@code null} when there is none. */
    private static byte[] der(byte[] pem) {
        String text = new String(pem, StandardCharsets.US_ASCII);
        int begin = text.indexOf(BEGIN);
        int end = begin < 0 ? -1 : text.indexOf(END, begin);
        if (end < 0) {
            return null;
        }
        return Base64.getMimeDecoder().decode(text.substring(begin + BEGIN.length(), end));
    }
}
