package io.parry.benchmarks;

import java.io.BufferedInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.security.GeneralSecurityException;
import java.security.cert.X509Certificate;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Callable;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import javax.net.ssl.SSLContext;
import javax.net.ssl.SSLSocketFactory;
import javax.net.ssl.TrustManager;
import javax.net.ssl.X509TrustManager;

/**
 * Opens many keep-alive connections to a server on 127.0.0.1, uses each once, and holds them idle, so a script can
 * measure what an idle connection costs the server.
 *
 * <p>Each connection sends {@code GET /plaintext} and reads the whole response first: a used connection is what a
 * real client leaves behind, and it has been through the server's whole request path. Once all are open the tool
 * prints a line starting with {@code READY}, then holds until standard input ends or {@code HOLD_SECONDS} pass,
 * and closes them. {@code PARALLEL} threads open the connections, so at most that many handshakes are in flight:
 * one by one, 10,000 TLS handshakes took longer than the scripts wait. Settings come from the environment:
 * {@code PORT} (default 8080), {@code CONNECTIONS} (default 10,000), {@code HOLD_SECONDS} (default 120),
 * {@code PARALLEL} (default 8) and {@code TLS} ({@code 1} for HTTPS, trusting any certificate: the benchmark's
 * own). It exits non-zero if any connection fails.
 *
 * <pre>{@code
 * PORT=8081 CONNECTIONS=10000 java -cp benchmarks/target/parry-benchmarks.jar io.parry.benchmarks.IdleConnections
 * }</pre>
 */
public final class IdleConnections {
    private static final int TIMEOUT_MILLIS = 10_000;

    private IdleConnections() {}

    /** Opens, uses and holds the connections; see the class description for the settings. */
    public static void main(String[] args) throws IOException, InterruptedException {
        int port = Env.intValue("PORT", 8080);
        int count = Env.intValue("CONNECTIONS", 10_000);
        long holdSeconds = Env.longValue("HOLD_SECONDS", 120);
        byte[] request =
                ("GET /plaintext HTTP/1.1\r\nHost: 127.0.0.1:" + port + "\r\n\r\n").getBytes(StandardCharsets.US_ASCII);
        int parallel = Env.intValue("PARALLEL", 8);
        SSLSocketFactory tls = System.getenv().getOrDefault("TLS", "0").equals("1") ? trustingAnyone() : null;
        InetSocketAddress address = new InetSocketAddress(InetAddress.getLoopbackAddress(), port);
        long start = System.nanoTime();
        List<Socket> sockets = openAll(count, parallel, () -> openUsed(address, request, tls));
        try {
            long millis = TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - start);
            System.out.printf(
                    "READY %d idle keep-alive connections to port %d (opened in %d ms by %d threads%s)%n",
                    count, port, millis, parallel, tls == null ? "" : ", TLS");
            System.out.println(awaitRelease(holdSeconds) ? "released: stdin closed" : "released: hold time over");
        } finally {
            closeAll(sockets);
        }
    }

    /** Opens {@code count} connections on {@code parallel} threads; if any fails, closes the rest and throws. */
    private static List<Socket> openAll(int count, int parallel, Callable<Socket> open)
            throws IOException, InterruptedException {
        ExecutorService threads = Executors.newFixedThreadPool(parallel);
        try {
            List<Future<Socket>> opening = new ArrayList<>(count);
            for (int i = 0; i < count; i++) {
                opening.add(threads.submit(open));
            }
            List<Socket> sockets = new ArrayList<>(count);
            IOException failure = null;
            for (Future<Socket> socket : opening) {
                try {
                    sockets.add(socket.get());
                } catch (ExecutionException e) {
                    failure = failure != null ? failure : new IOException("a connection failed", e.getCause());
                }
            }
            if (failure != null) {
                closeAll(sockets);
                throw failure;
            }
            return sockets;
        } finally {
            threads.shutdown();
        }
    }

    private static Socket openUsed(InetSocketAddress address, byte[] request, SSLSocketFactory tls) throws IOException {
        Socket socket = new Socket();
        try {
            socket.connect(address, TIMEOUT_MILLIS);
            socket.setSoTimeout(TIMEOUT_MILLIS);
            if (tls != null) {
                socket = tls.createSocket(socket, "localhost", address.getPort(), true);
            }
            socket.getOutputStream().write(request);
            // The server sends exactly one response, so a buffer dropped afterwards loses nothing.
            InputStream in = new BufferedInputStream(socket.getInputStream(), 512);
            ResponseHead head = ResponseHead.read(in);
            head.body(in).transferTo(OutputStream.nullOutputStream());
            if (head.status() != 200 || head.closes()) {
                throw new IOException("expected 200 on a kept-alive connection, got " + head);
            }
            return socket;
        } catch (IOException e) {
            socket.close();
            throw e;
        }
    }

    /** A TLS client that accepts any server certificate: the benchmarks make their own, self-signed. */
    private static SSLSocketFactory trustingAnyone() {
        try {
            SSLContext context = SSLContext.getInstance("TLS");
            context.init(
                    null,
                    new TrustManager[] {
                        new X509TrustManager() {
                            @Override
                            public void checkClientTrusted(X509Certificate[] chain, String authType) {}

                            @Override
                            public void checkServerTrusted(X509Certificate[] chain, String authType) {}

                            @Override
                            public X509Certificate[] getAcceptedIssuers() {
                                return new X509Certificate[0];
                            }
                        }
                    },
                    null);
            return context.getSocketFactory();
        } catch (GeneralSecurityException e) {
            throw new IllegalStateException(e);
        }
    }

    /** Returns {@code true} if standard input ended, {@code false} if the hold time ran out first. */
    private static boolean awaitRelease(long holdSeconds) throws InterruptedException {
        CountDownLatch stdinClosed = new CountDownLatch(1);
        Thread watcher = new Thread(
                () -> {
                    try {
                        System.in.transferTo(OutputStream.nullOutputStream());
                    } catch (IOException e) {
                        // An unreadable stdin counts as closed.
                    }
                    stdinClosed.countDown();
                },
                "stdin-watcher");
        watcher.setDaemon(true);
        watcher.start();
        return stdinClosed.await(holdSeconds, TimeUnit.SECONDS);
    }

    private static void closeAll(List<Socket> sockets) throws IOException {
        for (Socket socket : sockets) {
            socket.close();
        }
    }
}
