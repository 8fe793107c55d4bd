package io.parry.server.internal;

import io.netty.channel.ChannelPipeline;
import io.netty.handler.ssl.ClientAuth;
import io.netty.handler.ssl.SslProvider;
import io.parry.server.TlsCertificate;
import io.parry.server.TlsOptions;
import io.parry.transport.spi.tls.CertifiedKey;
import io.parry.transport.spi.tls.PemSource;
import io.parry.transport.spi.tls.ServerSslContexts;
import io.parry.transport.spi.tls.ServerTlsSpec;
import java.util.List;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;

/**
 * The TLS of a listener: its SSL contexts, the handshake handlers each connection starts with, and
 * the thread that reloads changed certificate files (only when some come from files and the reload
 * interval is not zero). The contexts are loaded when the listener is made and given up by {@link #stop()}.
 */
final class TlsListener {
    private final ServerSslContexts contexts;
    private final long handshakeTimeoutNanos;
    private final long reloadMillis;
    private ScheduledExecutorService reloader;

    TlsListener(TlsOptions options) {
        this.contexts = ServerSslContexts.load(spec(options));
        this.handshakeTimeoutNanos = options.handshakeTimeout().toNanos();
        this.reloadMillis = contexts.hasFiles() ? options.reloadInterval().toMillis() : 0;
    }

    /** Adds the handlers that take a new connection through its handshake. */
    void addHandshake(ServerRuntime runtime, ChannelPipeline pipeline) {
        TlsHandshake handshake = new TlsHandshake(runtime, contexts.isMultiple(), handshakeTimeoutNanos);
        pipeline.addLast("sni", new CertificateSelector(contexts, handshake)).addLast("handshake", handshake);
    }

    /** Starts checking the certificate files for changes, if any are to be checked. */
    synchronized void start() {
        if (reloadMillis > 0 && reloader == null) {
            reloader = Executors.newSingleThreadScheduledExecutor(task -> {
                Thread thread = new Thread(task, "parry-tls-reload");
                thread.setDaemon(true);
                return thread;
            });
            reloader.scheduleWithFixedDelay(contexts::reloadChanged, reloadMillis, reloadMillis, TimeUnit.MILLISECONDS);
        }
    }

    /** Stops reloading and gives up the contexts: connections still open keep theirs, new ones are refused. */
    synchronized void stop() {
        if (reloader != null) {
            reloader.shutdownNow();
            reloader = null;
        }
        contexts.close();
    }

    private static ServerTlsSpec spec(TlsOptions options) {
        List<CertifiedKey> certificates =
                options.certificates().stream().map(TlsListener::certifiedKey).toList();
        PemSource trusted = options.clientCaFile()
                .<PemSource>map(PemSource.File::new)
                .or(() -> options.clientCaPem().map(PemSource.Text::new))
                .orElse(null);
        return new ServerTlsSpec(
                certificates,
                options.protocols(),
                options.ciphers(),
                switch (options.clientAuth()) {
                    case NONE -> ClientAuth.NONE;
                    case OPTIONAL -> ClientAuth.OPTIONAL;
                    case REQUIRE -> ClientAuth.REQUIRE;
                },
                trusted,
                ServerInitializer.APPLICATION_PROTOCOLS,
                switch (options.provider()) {
                    case AUTO -> null;
                    case OPENSSL -> SslProvider.OPENSSL;
                    case JDK -> SslProvider.JDK;
                });
    }

    private static CertifiedKey certifiedKey(TlsCertificate certificate) {
        if (certificate.chainFile().isPresent()) {
            return new CertifiedKey(
                    new PemSource.File(certificate.chainFile().get()),
                    new PemSource.File(certificate.keyFile().orElseThrow()));
        }
        return new CertifiedKey(
                new PemSource.Text(certificate.chainPem().orElseThrow()),
                new PemSource.Text(certificate.keyPem().orElseThrow()));
    }
}
