package io.parry.server.internal;

import io.netty.buffer.ByteBufAllocator;
import io.netty.channel.ChannelHandlerContext;
import io.netty.handler.ssl.SniHandler;
import io.netty.handler.ssl.SslContext;
import io.netty.handler.ssl.SslHandler;
import io.netty.util.ReferenceCountUtil;
import io.netty.util.concurrent.Future;
import io.parry.transport.spi.tls.ServerCertificate;
import io.parry.transport.spi.tls.ServerSslContexts;

/**
 * Reads the client's hello, chooses the certificate for the name it asks for (SNI), and replaces
 * itself with an {@code SslHandler} of that certificate's context. Tells the connection's {@link
 * TlsHandshake} which certificate it chose. Neither this nor the {@code SslHandler} keeps a timer: the
 * connection's {@link TlsHandshake} is swept against the handshake timeout.
 *
 * <p>The chosen context is held by a reference of the lookup's own until the connection's engine, which takes one of
 * its own, is made: a reload may release the listener's reference meanwhile. Once the listener has stopped, the
 * lookup fails and the connection closes.
 */
final class CertificateSelector extends SniHandler {
    /** Netty's default, and more than any hello a browser sends. */
    private static final int MAX_CLIENT_HELLO = 16 * 1024;

    private final ServerSslContexts contexts;
    private final TlsHandshake handshake;

    CertificateSelector(ServerSslContexts contexts, TlsHandshake handshake) {
        super(hostname -> contexts.select(hostname).context(), MAX_CLIENT_HELLO, 0);
        this.contexts = contexts;
        this.handshake = handshake;
    }

    @Override
    protected SslHandler newSslHandler(SslContext context, ByteBufAllocator allocator) {
        SslHandler handler = super.newSslHandler(context, allocator);
        handler.setHandshakeTimeoutMillis(0);
        return handler;
    }

    @Override
    protected Future<SslContext> lookup(ChannelHandlerContext ctx, String hostname) {
        ServerCertificate certificate = contexts.acquire(hostname);
        if (certificate == null) {
            return ctx.executor().newFailedFuture(new IllegalStateException("the listener has stopped"));
        }
        handshake.certificateChosen(certificate, hostname);
        return ctx.executor().newSucceededFuture(certificate.context());
    }

    /** Netty calls it with the context of every lookup that succeeded. */
    @Override
    protected void replaceHandler(ChannelHandlerContext ctx, String hostname, SslContext context) throws Exception {
        try {
            super.replaceHandler(ctx, hostname, context);
        } finally {
            ReferenceCountUtil.release(context);
        }
    }
}
