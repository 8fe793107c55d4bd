package io.parry.benchmarks;

import java.io.BufferedInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.zip.CRC32;

/**
 * Streams a large request body through {@code POST /echo} on 127.0.0.1 and verifies that the same bytes come back.
 *
 * <p>One thread writes the request and a deterministic pseudo-random body while the main thread reads the response
 * at the same time, as a streaming server needs: a server that buffered the whole body would stall or run out of
 * memory instead. The response body may be framed by {@code Content-Length} or chunked. The tool prints the
 * throughput in MiB/s of payload echoed and {@code PASS} if the status was 200 and the byte count and CRC-32 of the
 * response equal those sent; otherwise {@code FAIL} and a non-zero exit. Settings come from the environment:
 * {@code PORT} (default 8080), {@code BYTES} (default 1 GiB) and {@code TIMEOUT_SECONDS} (default 300).
 *
 * <pre>{@code
 * PORT=8081 BYTES=67108864 java -cp benchmarks/target/parry-benchmarks.jar io.parry.benchmarks.StreamEcho
 * }</pre>
 */
public final class StreamEcho {
    private static final long SEED = 0x5EED_EC40L;

    private StreamEcho() {}

    /** Runs the echo once and exits non-zero unless it passed; see the class description for the settings. */
    public static void main(String[] args) throws IOException, InterruptedException {
        int port = Env.intValue("PORT", 8080);
        long size = Env.longValue("BYTES", 1L << 30);
        long timeoutNanos = TimeUnit.SECONDS.toNanos(Env.longValue("TIMEOUT_SECONDS", 300));
        String verdict;
        try (Socket socket = new Socket()) {
            socket.connect(new InetSocketAddress(InetAddress.getLoopbackAddress(), port), 10_000);
            verdict = run(socket, port, size, System.nanoTime() + timeoutNanos);
        }
        System.out.println(verdict);
        if (!verdict.startsWith("PASS")) {
            System.exit(1);
        }
    }

    private static String run(Socket socket, int port, long size, long deadline) throws InterruptedException {
        long start = System.nanoTime();
        CompletableFuture<Long> sent = send(socket, port, size);
        Received received;
        try {
            // A stalled server surfaces as a read timeout; main then closes the socket, which unblocks the sender.
            socket.setSoTimeout((int) Math.min(30_000, TimeUnit.NANOSECONDS.toMillis(deadline - start)));
            received = receive(new BufferedInputStream(socket.getInputStream(), 64 * 1024), deadline);
        } catch (IOException e) {
            return "FAIL: reading the response: " + e;
        }
        double seconds = (System.nanoTime() - start) / 1e9;
        try {
            long sentCrc = sent.get(Math.max(1, deadline - System.nanoTime()), TimeUnit.NANOSECONDS);
            System.out.printf(
                    "echoed %d of %d bytes in %.2f s: %.1f MiB/s (status %d, crc32 sent %08x, received %08x)%n",
                    received.bytes(),
                    size,
                    seconds,
                    size / seconds / (1 << 20),
                    received.status(),
                    sentCrc,
                    received.crc());
            return received.verdict(size, sentCrc);
        } catch (ExecutionException | TimeoutException e) {
            return "FAIL: sending the request: " + e;
        }
    }

    private static CompletableFuture<Long> send(Socket socket, int port, long size) {
        CompletableFuture<Long> crc = new CompletableFuture<>();
        Thread sender = new Thread(() -> sendBody(socket, port, size, crc), "stream-echo-sender");
        sender.setDaemon(true);
        sender.start();
        return crc;
    }

    private static void sendBody(Socket socket, int port, long size, CompletableFuture<Long> result) {
        String head = "POST /echo HTTP/1.1\r\nHost: 127.0.0.1:" + port + "\r\nContent-Length: " + size
                + "\r\nContent-Type: application/octet-stream\r\n\r\n";
        try {
            OutputStream out = socket.getOutputStream();
            out.write(head.getBytes(StandardCharsets.US_ASCII));
            CRC32 crc = new CRC32();
            new PatternSource(SEED).writeTo(out, size, crc);
            out.flush();
            result.complete(crc.getValue());
        } catch (IOException e) {
            result.completeExceptionally(e);
        }
    }

    private static Received receive(InputStream in, long deadline) throws IOException {
        ResponseHead head = ResponseHead.read(in);
        InputStream body = head.body(in);
        CRC32 crc = new CRC32();
        byte[] buffer = new byte[64 * 1024];
        long bytes = 0;
        for (int n = body.read(buffer); n >= 0; n = body.read(buffer)) {
            crc.update(buffer, 0, n);
            bytes += n;
            if (System.nanoTime() - deadline > 0) {
                throw new IOException("timed out after " + bytes + " bytes");
            }
        }
        return new Received(head.status(), bytes, crc.getValue());
    }

    /** What came back: the status, the body's length and its CRC-32. */
    private record Received(int status, long bytes, long crc) {
        String verdict(long sentBytes, long sentCrc) {
            if (status != 200) {
                return "FAIL: status " + status;
            }
            if (bytes != sentBytes) {
                return "FAIL: received " + bytes + " bytes, sent " + sentBytes;
            }
            return crc == sentCrc ? "PASS" : "FAIL: checksum differs";
        }
    }
}
