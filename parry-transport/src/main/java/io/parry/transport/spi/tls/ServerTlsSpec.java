package io.parry.transport.spi.tls;

import static java.util.Objects.requireNonNull;

import io.netty.handler.ssl.ClientAuth;
import io.netty.handler.ssl.SslProvider;
import java.util.List;

/**
 * What a TLS listener serves: its certificates (the first is the default when the client names no
 * known host), protocols, cipher suites, client authentication and ALPN protocols in preference order.
 * {@code trusted} holds the CAs client certificates must chain to, {@code null} without client auth;
 * {@code provider} is the TLS implementation, {@code null} for {@link SslProviders#preferred()}.
 */
public record ServerTlsSpec(
        List<CertifiedKey> certificates,
        List<String> protocols,
        List<String> ciphers,
        ClientAuth clientAuth,
        PemSource trusted,
        List<String> applicationProtocols,
        SslProvider provider) {
    public ServerTlsSpec {
        certificates = List.copyOf(certificates);
        protocols = List.copyOf(protocols);
        ciphers = List.copyOf(ciphers);
        requireNonNull(clientAuth, "clientAuth");
        applicationProtocols = List.copyOf(applicationProtocols);
        if (certificates.isEmpty()) {
            throw new IllegalArgumentException("certificates: [] (expected: at least one)");
        }
    }
}
