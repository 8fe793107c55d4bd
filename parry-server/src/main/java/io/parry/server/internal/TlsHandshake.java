package io.parry.server.internal;

import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelInboundHandlerAdapter;
import io.netty.handler.ssl.SniCompletionEvent;
import io.netty.handler.ssl.SslHandler;
import io.netty.handler.ssl.SslHandshakeCompletionEvent;
import io.netty.handler.ssl.SslHandshakeTimeoutException;
import io.netty.util.ReferenceCountUtil;
import io.parry.server.Rejection;
import io.parry.server.TlsInfo;
import io.parry.transport.spi.tls.ServerCertificate;
import io.parry.transport.spi.tls.TlsWriteBatch;
import java.security.cert.Certificate;
import java.security.cert.X509Certificate;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import javax.net.ssl.SSLPeerUnverifiedException;
import javax.net.ssl.SSLSession;

/**
 * Waits for a connection's TLS handshake. When it succeeds, gathers what it settled ({@link TlsInfo})
 * and hands the connection to {@link ServerInitializer#installFraming} for the protocol ALPN chose,
 * then leaves the pipeline. When it fails (not TLS, no common ground, a client certificate missing or
 * untrusted, too slow), counts {@link Rejection#TLS_HANDSHAKE} once, logs at debug level, and
 * closes. Until the framing takes over, the connection is counted closed here.
 *
 * <p>Until then it also sits in its event loop's {@link ConnectionSweeper}, which times the whole handshake, from
 * the connection's first moment to the client's last handshake message, against the handshake timeout (no timer per
 * connection), and which closes it at once when the server stops.
 */
final class TlsHandshake extends ChannelInboundHandlerAdapter implements SweptConnection {
    private final ServerRuntime runtime;
    private final boolean checkHosts;
    private final long timeoutNanos;
    private ChannelHandlerContext ctx;
    private ConnectionSweeper sweeper;
    private long startNanos;
    private SweptConnection previousSwept;
    private SweptConnection nextSwept;
    private ServerCertificate certificate;
    private String serverName;
    /** Records decrypted before the handshake event arrived, passed on once the framing is in place. */
    private ArrayDeque<Object> early;

    private boolean done;

    TlsHandshake(ServerRuntime runtime, boolean checkHosts, long timeoutNanos) {
        this.runtime = runtime;
        this.checkHosts = checkHosts;
        this.timeoutNanos = timeoutNanos;
    }

    @Override
    public void handlerAdded(ChannelHandlerContext ctx) {
        this.ctx = ctx;
        startNanos = System.nanoTime();
        sweeper = runtime.connections.sweeper(ctx.channel().eventLoop());
        sweeper.add(this);
        // A stop that began before this loop's sweeper existed drains no sweeper of it: such a connection, counted
        // open, held the stop for its whole grace period. The sweeper is registered before this read, and the stop
        // marks the server draining before it looks for sweepers, so one of the two always sees the other.
        if (runtime.isDraining()) {
            drain();
        }
    }

    @Override
    public void checkDeadlines(long now) {
        if (timeoutNanos > 0 && now - startNanos >= timeoutNanos) {
            failed(
                    ctx,
                    new SslHandshakeTimeoutException(
                            "handshake not done after " + TimeUnit.NANOSECONDS.toMillis(timeoutNanos) + " ms"));
        }
    }

    /** A connection still in its handshake has no exchange to finish: a stop closes it at once, uncounted. */
    @Override
    public void drain() {
        close();
    }

    @Override
    public void close() {
        if (!done) {
            done = true;
            unwatch();
            runtime.connections.closed();
            ctx.close();
        }
    }

    @Override
    public SweptConnection previousSwept() {
        return previousSwept;
    }

    @Override
    public void previousSwept(SweptConnection previous) {
        previousSwept = previous;
    }

    @Override
    public SweptConnection nextSwept() {
        return nextSwept;
    }

    @Override
    public void nextSwept(SweptConnection next) {
        nextSwept = next;
    }

    /** Called by the {@link CertificateSelector} with the certificate chosen for the client's SNI name. */
    void certificateChosen(ServerCertificate certificate, String serverName) {
        this.certificate = certificate;
        this.serverName = serverName;
    }

    @Override
    public void userEventTriggered(ChannelHandlerContext ctx, Object event) throws Exception {
        if (event instanceof SslHandshakeCompletionEvent completion) {
            if (completion.isSuccess()) {
                succeeded(ctx);
            } else {
                failed(ctx, completion.cause());
            }
        } else if (event instanceof SniCompletionEvent sni && !sni.isSuccess()) {
            failed(ctx, sni.cause());
        }
        ctx.fireUserEventTriggered(event);
    }

    @Override
    public void channelRead(ChannelHandlerContext ctx, Object msg) {
        if (done) {
            ReferenceCountUtil.release(msg);
            return;
        }
        if (early == null) {
            early = new ArrayDeque<>(2);
        }
        early.add(msg);
    }

    @Override
    public void exceptionCaught(ChannelHandlerContext ctx, Throwable cause) {
        // Bytes that are not TLS, or a hello that does not parse: the handshake never completes.
        failed(ctx, cause);
    }

    @Override
    public void channelInactive(ChannelHandlerContext ctx) {
        if (!done) {
            failed(ctx, null);
        }
        ctx.fireChannelInactive();
    }

    @Override
    public void handlerRemoved(ChannelHandlerContext ctx) {
        unwatch();
        if (early != null) {
            early.forEach(ReferenceCountUtil::release);
            early = null;
        }
    }

    private void succeeded(ChannelHandlerContext ctx) {
        if (done) {
            return;
        }
        done = true;
        unwatch();
        SslHandler ssl = ctx.pipeline().get(SslHandler.class);
        SSLSession session = ssl.engine().getSession();
        String protocol = ssl.applicationProtocol();
        TlsInfo info = TlsInfo.of(
                session.getProtocol(),
                session.getCipherSuite(),
                serverName,
                protocol == null ? ConnectionTls.HTTP_1_1 : protocol,
                peerCertificates(session));
        TlsWriteBatch.addAfter(ctx.pipeline().context(ssl));
        ServerInitializer.installFraming(
                runtime, ctx.pipeline(), new ConnectionTls(info, checkHosts ? certificate : null));
        ArrayDeque<Object> pending = early;
        early = null;
        ctx.pipeline().remove(this);
        if (pending != null) {
            pending.forEach(ctx::fireChannelRead);
            ctx.fireChannelReadComplete();
        }
    }

    private void failed(ChannelHandlerContext ctx, Throwable cause) {
        if (done) {
            return;
        }
        done = true;
        unwatch();
        runtime.connections.closed();
        runtime.rejections.record(
                Rejection.TLS_HANDSHAKE,
                ctx.channel().remoteAddress(),
                cause == null ? "closed during the handshake" : String.valueOf(cause.getMessage()));
        ctx.close();
    }

    private void unwatch() {
        if (sweeper != null) {
            sweeper.remove(this);
            sweeper = null;
        }
    }

    private static List<X509Certificate> peerCertificates(SSLSession session) {
        Certificate[] chain;
        try {
            chain = session.getPeerCertificates();
        } catch (SSLPeerUnverifiedException e) {
            return List.of();
        }
        List<X509Certificate> certificates = new ArrayList<>(chain.length);
        for (Certificate certificate : chain) {
            if (certificate instanceof X509Certificate x509) {
                certificates.add(x509);
            }
        }
        return certificates;
    }
}
