package io.parry.client;

import java.io.BufferedInputStream;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.Socket;
import java.net.SocketException;
import java.nio.charset.StandardCharsets;
import java.util.Locale;

/** One connection accepted by a {@link RawUpstream}: reads requests and writes exact bytes. */
final class UpstreamConnection implements AutoCloseable {
    private final Socket socket;
    private final InputStream in;
    private final OutputStream out;

    UpstreamConnection(Socket socket) throws IOException {
        this.socket = socket;
        socket.setSoTimeout(10_000);
        socket.setTcpNoDelay(true);
        this.in = new BufferedInputStream(socket.getInputStream());
        this.out = socket.getOutputStream();
    }

    /** Reads one request with its body; {@code null} when the client closed before sending one. */
    RawRequest readRequest() throws IOException {
        String head = readHead();
        if (head == null) {
            return null;
        }
        RawRequest request = new RawRequest(head, new byte[0], "");
        String length = request.header("content-length");
        if (length != null) {
            return new RawRequest(head, in.readNBytes(Integer.parseInt(length.trim())), "");
        }
        if ("chunked".equalsIgnoreCase(request.header("transfer-encoding"))) {
            return readChunked(head);
        }
        return request;
    }

    /** Reads a request head up to its empty line; {@code null} at a close before any byte. */
    String readHead() throws IOException {
        StringBuilder head = new StringBuilder();
        int b;
        while ((b = in.read()) >= 0) {
            head.append((char) b);
            if (head.length() >= 4 && head.lastIndexOf("\r\n\r\n") == head.length() - 4) {
                return head.toString();
            }
        }
        if (head.length() == 0) {
            return null;
        }
        throw new IOException("closed in the middle of a head: " + head);
    }

    /** Reads and drops {@code count} bytes at most {@code chunk} at a time, calling back after each read. */
    long drain(long count, int chunk, LongConsumer afterRead) throws IOException {
        byte[] buffer = new byte[chunk];
        long total = 0;
        while (total < count) {
            int read = in.read(buffer, 0, (int) Math.min(buffer.length, count - total));
            if (read < 0) {
                break;
            }
            total += read;
            afterRead.accept(total);
        }
        return total;
    }

    /** Sends text with each {@code \n} turned into {@code \r\n}. */
    void send(String text) throws IOException {
        sendBytes(text.replace("\r\n", "\n").replace("\n", "\r\n").getBytes(StandardCharsets.ISO_8859_1));
    }

    void sendBytes(byte[] bytes) throws IOException {
        out.write(bytes);
        out.flush();
    }

    /** Waits until the client closes the connection; true when it did within the read timeout. */
    boolean awaitClose() {
        try {
            byte[] sink = new byte[8192];
            while (in.read(sink) >= 0) {
                // Whatever the client still sends is not the point.
            }
            return true;
        } catch (SocketException e) {
            return true;
        } catch (IOException e) {
            return false;
        }
    }

    /** Closes with a TCP reset instead of a FIN. */
    void reset() throws IOException {
        socket.setSoLinger(true, 0);
        socket.close();
    }

    @Override
    public void close() {
        try {
            socket.close();
        } catch (IOException e) {
            // Closing twice, or after a reset.
        }
    }

    private RawRequest readChunked(String head) throws IOException {
        ByteArrayOutputStream body = new ByteArrayOutputStream();
        while (true) {
            String sizeLine = readLine();
            int size = Integer.parseInt(sizeLine.split(";")[0].trim(), 16);
            if (size == 0) {
                break;
            }
            body.write(in.readNBytes(size));
            readLine();
        }
        StringBuilder trailers = new StringBuilder();
        String line;
        while (!(line = readLine()).isEmpty()) {
            trailers.append(line).append("\r\n");
        }
        return new RawRequest(head, body.toByteArray(), trailers.toString());
    }

    private String readLine() throws IOException {
        StringBuilder line = new StringBuilder();
        int b;
        while ((b = in.read()) >= 0 && b != '\n') {
            line.append((char) b);
        }
        if (b < 0) {
            throw new IOException("closed in the middle of a line");
        }
        return line.toString().replace("\r", "");
    }

    /** A request as received: its head, body and chunked trailer lines. */
    record RawRequest(String head, byte[] body, String trailers) {
        String requestLine() {
            return head.substring(0, head.indexOf("\r\n"));
        }

        /** The first value of the named field, or {@code null}. */
        String header(String name) {
            for (String line : head.split("\r\n")) {
                int colon = line.indexOf(':');
                if (colon > 0
                        && line.substring(0, colon)
                                .trim()
                                .toLowerCase(Locale.ROOT)
                                .equals(name)) {
                    return line.substring(colon + 1).trim();
                }
            }
            return null;
        }

        String bodyText() {
            return new String(body, StandardCharsets.UTF_8);
        }
    }

    /** A callback with a running total. */
    @FunctionalInterface
    interface LongConsumer {
        void accept(long total) throws IOException;
    }
}
