package io.parry.transport.spi.tls;

import io.netty.handler.ssl.ReferenceCountedOpenSslContext;
import io.netty.handler.ssl.SslContext;

/**
 * Sizes the buffer netty-tcnative gives each OpenSSL connection for the TLS bytes BoringSSL writes while Netty
 * unwraps (the handshake's flights, alerts, a key update's answer): 32 bytes instead of Netty's 2 KiB. Servers and
 * clients (the proxy's connections to upstreams) use it alike.
 *
 * <p>tcnative allocates it with the connection and frees it with the connection, so an idle TLS connection held 2 KiB
 * it would use only during its handshake. Bytes that do not fit stay in BoringSSL's own buffers, which it frees once
 * they are written: the engine asks for a wrap, which takes what the buffer holds and lets BoringSSL write the rest
 * straight into the wrap's output. A handshake flight of a few KiB took that one extra wrap at 2 KiB or 256 bytes
 * already, and takes the same one at 32; 32 bytes still hold a whole alert or key update record (24 and 27 bytes with
 * TLS 1.3's AEAD). Session tickets do not pass here: BoringSSL sends them with the connection's first write.
 */
public final class HandshakeBuffer {
    static final int BYTES = 32;

    private HandshakeBuffer() {}

    /** Sets the buffer's size on an OpenSSL context, server or client; a JDK context has none. */
    public static void configure(SslContext context) {
        if (context instanceof ReferenceCountedOpenSslContext openSsl) {
            openSsl.setBioNonApplicationBufferSize(BYTES);
        }
    }
}
