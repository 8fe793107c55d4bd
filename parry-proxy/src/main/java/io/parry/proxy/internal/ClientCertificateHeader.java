package io.parry.proxy.internal;

import java.net.URLEncoder;
import java.nio.charset.StandardCharsets;
import java.security.GeneralSecurityException;
import java.security.MessageDigest;
import java.security.cert.X509Certificate;
import java.util.Base64;
import java.util.HexFormat;

/**
 * The {@code X-Forwarded-Client-Cert} value for the client certificate a TLS listener verified, in
 * Envoy's format: {@code Hash=<SHA-256 of the DER, hex>;Cert="<URL-encoded PEM>";Subject="<RFC 2253
 * subject>"}. The field is always removed from what a client sends ({@link UpstreamHeaders}); only the
 * proxy writes it.
 */
final class ClientCertificateHeader {
    static final String NAME = "x-forwarded-client-cert";

    private ClientCertificateHeader() {}

    static String of(X509Certificate certificate) {
        byte[] der;
        byte[] hash;
        try {
            der = certificate.getEncoded();
            hash = MessageDigest.getInstance("SHA-256").digest(der);
        } catch (GeneralSecurityException e) {
            throw new IllegalStateException("cannot encode the client certificate", e);
        }
        String pem = "-----BEGIN CERTIFICATE-----\n"
                + Base64.getMimeEncoder(64, new byte[] {'\n'}).encodeToString(der)
                + "\n-----END CERTIFICATE-----\n";
        return "Hash=" + HexFormat.of().formatHex(hash)
                + ";Cert=\"" + URLEncoder.encode(pem, StandardCharsets.UTF_8).replace("+", "%20")
                + "\";Subject=\"" + quoted(certificate.getSubjectX500Principal().getName()) + "\"";
    }

    private static String quoted(String value) {
        return value.replace("\\", "\\\\").replace("\"", "\\\"");
    }
}
