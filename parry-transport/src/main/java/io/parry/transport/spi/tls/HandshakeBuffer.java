package io.parry.transport.spi.tls;

import io.netty.handler.ssl.ReferenceCountedOpenSslContext;
import io.netty.handler.ssl.SslContext;

/**
 * Sizes the buffer netty-tcnative gives each OpenSSL connection for the TLS bytes BoringSSL writes while Netty
 * unwraps (the handshake's flights, session tickets, alerts): 256 bytes instead of Netty's 2 KiB. Servers and clients
 * (the proxy's connections to upstreams) use it alike.
 *
 * <p>tcnative allocates it with the connection and frees it with the connection, so an idle TLS connection held 2 KiB
 * it would use only during its handshake: about 40% of the native memory BoringSSL kept per connection. Bytes that do
 * not fit stay in BoringSSL's own buffers, which it frees once they are written, and the engine asks for a wrap that
 * drains them (as with Netty's default, which a certificate chain of a few KiB does not fit either); what a
 * connection's read makes it send (a ticket, an alert, a client's Finished) is a few hundred bytes at most.
 */
public final class HandshakeBuffer {
    static final int BYTES = 256;

    private HandshakeBuffer() {}

    /** Sets the buffer's size on an OpenSSL context, server or client; a JDK context has none. */
    public static void configure(SslContext context) {
        if (context instanceof ReferenceCountedOpenSslContext openSsl) {
            openSsl.setBioNonApplicationBufferSize(BYTES);
        }
    }
}
