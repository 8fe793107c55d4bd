package io.parry.transport.spi.tls;

import io.netty.buffer.ByteBufAllocator;
import io.netty.handler.ssl.SslContext;
import io.netty.handler.ssl.SslContextBuilder;
import io.netty.handler.ssl.SslProvider;
import io.netty.handler.ssl.util.InsecureTrustManagerFactory;
import io.netty.util.ReferenceCountUtil;
import java.nio.ByteBuffer;
import java.util.List;
import javax.net.ssl.SSLEngine;
import javax.net.ssl.SSLEngineResult;
import javax.net.ssl.SSLEngineResult.HandshakeStatus;
import javax.net.ssl.SSLException;

/**
 * A server engine and a JDK client engine that handshake in memory, without sockets: what a server context makes of a
 * connection, byte for byte.
 */
final class EnginePair implements AutoCloseable {
    private static final int BUFFER = 64 * 1024;

    final SSLEngine server;
    final SSLEngine client;
    private final ByteBuffer toServer = ByteBuffer.allocate(BUFFER);
    private final ByteBuffer toClient = ByteBuffer.allocate(BUFFER);
    private final ByteBuffer sink = ByteBuffer.allocate(BUFFER);

    private EnginePair(SSLEngine server, SSLEngine client) {
        this.server = server;
        this.client = client;
    }

    /** Handshakes a new server engine of {@code context} with a JDK client that allows only {@code protocol}. */
    static EnginePair handshake(SslContext context, String protocol) throws SSLException {
        SslContext clientContext = SslContextBuilder.forClient()
                .sslProvider(SslProvider.JDK)
                .protocols(List.of(protocol))
                .trustManager(InsecureTrustManagerFactory.INSTANCE)
                .build();
        EnginePair pair = new EnginePair(
                context.newEngine(ByteBufAllocator.DEFAULT), clientContext.newEngine(ByteBufAllocator.DEFAULT));
        pair.client.beginHandshake();
        pair.server.beginHandshake();
        for (int round = 0; round < 100 && !pair.handshaken(); round++) {
            pair.exchange();
        }
        if (!pair.handshaken()) {
            pair.close();
            throw new SSLException("no handshake: server " + pair.server.getHandshakeStatus() + ", client "
                    + pair.client.getHandshakeStatus());
        }
        return pair;
    }

    private boolean handshaken() {
        return server.getHandshakeStatus() == HandshakeStatus.NOT_HANDSHAKING
                && client.getHandshakeStatus() == HandshakeStatus.NOT_HANDSHAKING
                && toServer.position() == 0
                && toClient.position() == 0;
    }

    private void exchange() throws SSLException {
        wrap(client, toServer);
        unwrap(server, toServer);
        wrap(server, toClient);
        unwrap(client, toClient);
    }

    private static void wrap(SSLEngine engine, ByteBuffer net) throws SSLException {
        SSLEngineResult result;
        do {
            result = engine.wrap(ByteBuffer.allocate(0), net);
            runTasks(engine);
        } while (result.bytesProduced() > 0);
    }

    private void unwrap(SSLEngine engine, ByteBuffer net) throws SSLException {
        net.flip();
        try {
            while (net.hasRemaining()) {
                SSLEngineResult result = engine.unwrap(net, sink);
                runTasks(engine);
                sink.clear();
                if (result.bytesConsumed() == 0) {
                    break;
                }
            }
        } finally {
            net.compact();
        }
    }

    private static void runTasks(SSLEngine engine) {
        for (Runnable task = engine.getDelegatedTask(); task != null; task = engine.getDelegatedTask()) {
            task.run();
        }
    }

    @Override
    public void close() {
        ReferenceCountUtil.release(server);
        ReferenceCountUtil.release(client);
    }
}
