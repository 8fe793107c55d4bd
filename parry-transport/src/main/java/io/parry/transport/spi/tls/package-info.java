/**
 * The server's TLS for Parry's own modules: {@link io.parry.transport.spi.tls.ServerSslContexts} (one SSL
 * context per certificate, chosen by SNI name, rebuilt when its files change), {@link
 * io.parry.transport.spi.tls.SslProviders} (OpenSSL when it loads, else the JDK's), and the values they
 * are made from. Not API for applications: they configure TLS with the server's {@code TlsOptions}.
 */
package io.parry.transport.spi.tls;
