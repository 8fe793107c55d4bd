package io.parry.benchmarks;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.ByteBufAllocator;
import io.netty.channel.embedded.EmbeddedChannel;
import io.netty.handler.ssl.SslContext;
import io.netty.handler.ssl.SslContextBuilder;
import io.netty.handler.ssl.SslHandler;
import io.netty.handler.ssl.SslProvider;
import io.netty.handler.ssl.util.InsecureTrustManagerFactory;
import io.netty.handler.ssl.util.SelfSignedCertificate;
import io.parry.transport.spi.tls.TlsWriteBatch;
import java.lang.management.ManagementFactory;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.Locale;

/**
 * The CPU time and bytes an OpenSSL {@code SslHandler} costs per HTTP/2 response, with and without Parry's {@link
 * TlsWriteBatch} in front of it, on one thread with no socket. Each response is written as Netty's HTTP/2 frame writer
 * writes a small one (a HEADERS frame header, its header block, a DATA frame header, a 13-byte body), each buffer with
 * its promise; a flush follows every {@code RESPONSES} responses (10 or 100: the streams a connection of h2.sh's two
 * shapes has in flight), and its record is read and dropped. The two pipelines alternate, {@code ROUNDS} rounds of
 * {@code FLUSHES} flushes each after a warm-up; the thread's own CPU time ({@code ThreadMXBean}) is read around each,
 * so a loaded machine delays the run but adds little to the figures.
 *
 * <pre>
 * RESPONSES=10 java -cp benchmarks/target/parry-benchmarks.jar io.parry.benchmarks.TlsWriteCost
 * </pre>
 */
public final class TlsWriteCost {
    private static final com.sun.management.ThreadMXBean THREADS =
            (com.sun.management.ThreadMXBean) ManagementFactory.getThreadMXBean();
    private static final byte[] HEADER_BLOCK = new byte[24];
    private static final byte[] BODY = "Hello, World!".getBytes(StandardCharsets.US_ASCII);

    private TlsWriteCost() {}

    public static void main(String[] args) throws Exception {
        int responses = Env.intValue("RESPONSES", 10);
        int rounds = Env.intValue("ROUNDS", 7);
        int flushes = Env.intValue("FLUSHES", 2_000_000 / responses);
        SelfSignedCertificate certificate = new SelfSignedCertificate("localhost", "EC", 256);
        EmbeddedChannel[] servers = {connection(certificate, false), connection(certificate, true)};
        for (int slice = 0; slice < 10; slice++) {
            for (EmbeddedChannel server : servers) {
                run(server, responses, flushes / 5);
            }
        }
        double[][] nanos = new double[2][rounds];
        double[][] bytes = new double[2][rounds];
        for (int round = 0; round < rounds; round++) {
            for (int turn = 0; turn < 2; turn++) {
                int which = (turn + round) % 2;
                long cpu = THREADS.getCurrentThreadCpuTime();
                long allocated = THREADS.getCurrentThreadAllocatedBytes();
                run(servers[which], responses, flushes);
                double count = (double) flushes * responses;
                nanos[which][round] = (THREADS.getCurrentThreadCpuTime() - cpu) / count;
                bytes[which][round] = (THREADS.getCurrentThreadAllocatedBytes() - allocated) / count;
            }
        }
        System.out.printf(
                Locale.ROOT,
                "%d responses per flush, %d rounds x %d flushes (%s)%n",
                responses,
                rounds,
                flushes,
                Runtime.version());
        String[] names = {"SslHandler alone", "with TlsWriteBatch"};
        for (int which = 0; which < 2; which++) {
            double[] sorted = nanos[which].clone();
            Arrays.sort(sorted);
            double[] allocations = bytes[which].clone();
            Arrays.sort(allocations);
            System.out.printf(
                    Locale.ROOT,
                    "%-20s %8.1f ns/response (%.1f to %.1f) %8.1f bytes/response%n",
                    names[which],
                    sorted[rounds / 2],
                    sorted[0],
                    sorted[rounds - 1],
                    allocations[rounds / 2]);
        }
        for (EmbeddedChannel server : servers) {
            server.finishAndReleaseAll();
        }
    }

    /** A server channel past its handshake with a client channel, with the batch or without. */
    @SuppressWarnings("deprecation") // SelfSignedCertificate: a throwaway certificate is all a benchmark needs.
    private static EmbeddedChannel connection(SelfSignedCertificate certificate, boolean batch) throws Exception {
        SslContext serverContext = SslContextBuilder.forServer(certificate.key(), certificate.cert())
                .sslProvider(SslProvider.OPENSSL)
                .build();
        SslContext clientContext = SslContextBuilder.forClient()
                .sslProvider(SslProvider.OPENSSL)
                .trustManager(InsecureTrustManagerFactory.INSTANCE)
                .build();
        EmbeddedChannel server = new EmbeddedChannel();
        EmbeddedChannel client = new EmbeddedChannel();
        server.pipeline().addLast("ssl", serverContext.newHandler(server.alloc()));
        client.pipeline().addLast("ssl", clientContext.newHandler(client.alloc()));
        SslHandler serverSsl = server.pipeline().get(SslHandler.class);
        while (!serverSsl.handshakeFuture().isDone()) {
            move(client, server);
            move(server, client);
        }
        client.finishAndReleaseAll();
        if (batch) {
            TlsWriteBatch.addAfter(server.pipeline().context("ssl"));
        }
        return server;
    }

    private static void run(EmbeddedChannel server, int responses, int flushes) {
        ByteBufAllocator alloc = server.alloc();
        for (int flush = 0; flush < flushes; flush++) {
            for (int i = 0; i < responses; i++) {
                server.write(alloc.buffer(9).writeZero(9), server.newPromise());
                server.write(alloc.buffer(HEADER_BLOCK.length).writeBytes(HEADER_BLOCK), server.newPromise());
                server.write(alloc.buffer(9).writeZero(9), server.newPromise());
                server.write(alloc.directBuffer(BODY.length).writeBytes(BODY), server.newPromise());
            }
            server.flush();
            for (ByteBuf record; (record = server.readOutbound()) != null; ) {
                record.release();
            }
        }
    }

    private static void move(EmbeddedChannel from, EmbeddedChannel to) {
        for (Object bytes; (bytes = from.readOutbound()) != null; ) {
            to.writeInbound(bytes);
        }
    }
}
