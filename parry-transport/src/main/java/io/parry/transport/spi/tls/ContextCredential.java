package io.parry.transport.spi.tls;

import io.netty.handler.ssl.OpenSslCredential;
import io.netty.handler.ssl.OpenSslCredentialBuilder;
import io.netty.handler.ssl.SslContext;
import io.netty.handler.ssl.SslContextBuilder;
import io.netty.handler.ssl.SslProvider;
import io.netty.internal.tcnative.SSLContext;
import java.security.PrivateKey;
import java.security.cert.X509Certificate;
import javax.net.ssl.SSLException;

/**
 * Gives an OpenSSL server context its certificate and key once, as a BoringSSL credential shared by its connections,
 * instead of once per connection.
 *
 * <p>Netty's OpenSSL server context sets the key material on each connection from a certificate callback. BoringSSL
 * then parses the leaf's public key again for every connection and keeps that copy, with a list for the chain, for the
 * connection's life: about 400 bytes of native memory with an EC P-256 key, a tenth of what an idle TLS connection
 * held, and a key parse per handshake. Here the context gets a credential and, once built, loses the callback, so that
 * its connections use the credential. When tcnative's context is out of reach, or Parry does not parse the key (it is
 * not unencrypted PKCS#8), the context is built as Netty builds it.
 */
final class ContextCredential {
    private ContextCredential() {}

    /**
     * Builds a server context whose connections share the credential of {@code chain} and {@code key}; or as Netty
     * builds it, when {@code key} is {@code null}, the provider is the JDK's, or tcnative cannot do it.
     */
    static SslContext build(SslContextBuilder builder, SslProvider provider, X509Certificate[] chain, PrivateKey key)
            throws SSLException {
        if (key == null
                || provider == SslProvider.JDK
                || !OpenSslCredential.isAvailable()
                || !NativeContext.reachable()) {
            return builder.build();
        }
        OpenSslCredential credential =
                OpenSslCredentialBuilder.forX509(key, chain).build();
        try {
            SslContext context = builder.addCredential(credential).build();
            long pointer = NativeContext.of(context);
            if (pointer != 0) {
                SSLContext.setCertificateCallback(pointer, null);
            }
            return context;
        } finally {
            // The context holds a reference of its own.
            credential.release();
        }
    }
}
