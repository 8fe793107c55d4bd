package io.parry.proxy;

import java.io.IOException;
import java.io.OutputStream;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Future;
import java.util.concurrent.atomic.AtomicInteger;

/** A client that sends its request body slowly, the attack on places held while a body arrives. */
final class SlowUpload {
    private SlowUpload() {}

    /**
     * How long the chunked bodies of {@link #streamedThenWhole} take to send at the least: their requests
     * take places again (whatever the limit) once sent.
     */
    static final Duration STREAMED = Duration.ofSeconds(5);

    /**
     * Starts {@code count} clients streaming chunked bodies for {@link #STREAMED}, waits until the upstream
     * has their heads, then starts {@code count} sending bodies with a length for a second longer. The
     * default retry policy reads such a small body whole before sending it and streams a chunked one,
     * which steps out when the upstream starts reading it. Those read whole end over a second after the
     * streamed ones, whose requests have then left the upstream, so they find places again.
     */
    static List<Future<?>> streamedThenWhole(
            ExecutorService threads, int port, CapacityUpstream upstream, int count, AtomicInteger uploaded)
            throws InterruptedException {
        int streamedBytes = (int) (STREAMED.toMillis() / 100);
        List<Future<?>> senders = new ArrayList<>();
        for (int i = 0; i < count; i++) {
            senders.add(threads.submit(() -> send(port, true, streamedBytes, uploaded)));
        }
        upstream.awaitArrivals(count, Duration.ofSeconds(10));
        for (int i = 0; i < count; i++) {
            senders.add(threads.submit(() -> send(port, false, streamedBytes + 10, uploaded)));
        }
        return senders;
    }

    /**
     * Posts a body of {@code bytes} bytes to {@code /work}, one every 100 ms, with a length or in the
     * chunked coding, then reads the answer's status line and counts a 200 in {@code uploaded}.
     */
    static Void send(int port, boolean chunked, int bytes, AtomicInteger uploaded) throws Exception {
        try (Socket socket = new Socket()) {
            socket.connect(new InetSocketAddress("127.0.0.1", port), 5000);
            write(
                    socket,
                    "POST /work HTTP/1.1\r\nHost: h\r\n"
                            + (chunked ? "Transfer-Encoding: chunked" : "Content-Length: " + bytes)
                            + "\r\n\r\n");
            for (int i = 0; i < bytes; i++) {
                Thread.sleep(100); // The client's pace is the attack.
                write(socket, chunked ? "1\r\nx\r\n" : "x");
            }
            if (chunked) {
                write(socket, "0\r\n\r\n");
            }
            byte[] head = new byte[12];
            socket.getInputStream().readNBytes(head, 0, 12);
            if (new String(head, StandardCharsets.US_ASCII).equals("HTTP/1.1 200")) {
                uploaded.incrementAndGet();
            }
        } catch (IOException e) {
            // Refused before its body was read, the connection closed.
        }
        return null;
    }

    private static void write(Socket socket, String text) throws IOException {
        OutputStream out = socket.getOutputStream();
        out.write(text.getBytes(StandardCharsets.US_ASCII));
        out.flush();
    }
}
