package io.parry.testing;

import java.io.BufferedInputStream;
import java.io.ByteArrayOutputStream;
import java.io.EOFException;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.net.SocketException;
import java.net.SocketTimeoutException;
import java.nio.charset.StandardCharsets;
import java.time.Duration;

/**
 * A raw TCP connection for protocol tests: send exact bytes, read responses as they are framed on
 * the wire. Every read has a timeout, so a server that hangs fails the test instead of stalling it.
 *
 * <pre>{@code
 * try (RawConnection connection = server.connect()) {
 *     connection.send("""
 *             GET /plaintext HTTP/1.1
 *             Host: localhost
 *
 *             """);
 *     assertThat(connection.readResponse().status()).isEqualTo(200);
 * }
 * }</pre>
 */
public final class RawConnection implements AutoCloseable {
    private static final Duration READ_TIMEOUT = Duration.ofSeconds(10);

    private final Socket socket;
    private final InputStream in;

    private RawConnection(Socket socket) throws IOException {
        this.socket = socket;
        this.in = new BufferedInputStream(socket.getInputStream());
    }

    /** Connects to the host and port. */
    public static RawConnection open(String host, int port) {
        try {
            Socket socket = new Socket();
            socket.connect(new InetSocketAddress(host, port), 5_000);
            socket.setSoTimeout((int) READ_TIMEOUT.toMillis());
            socket.setTcpNoDelay(true);
            return new RawConnection(socket);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /**
     * Sends text with each {@code \n} turned into {@code \r\n}, so a text block reads as a request.
     * Use {@link #sendExactly(String)} for bare LF or CR cases.
     */
    public RawConnection send(String text) {
        return sendExactly(text.replace("\r\n", "\n").replace("\n", "\r\n"));
    }

    /** Sends the text's characters as ISO-8859-1 bytes, exactly. */
    public RawConnection sendExactly(String text) {
        return sendBytes(text.getBytes(StandardCharsets.ISO_8859_1));
    }

    /** Sends these bytes. */
    public RawConnection sendBytes(byte[] bytes) {
        try {
            socket.getOutputStream().write(bytes);
            socket.getOutputStream().flush();
            return this;
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** Closes the sending half (TCP FIN), as a client that has said everything. */
    public void shutdownOutput() {
        try {
            socket.shutdownOutput();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /**
     * Reads one response, interim (1xx) ones included, with its body framed by Content-Length,
     * chunked coding or the close. A response to HEAD is read with {@link #readResponseHead()}.
     */
    public RawResponse readResponse() {
        RawResponse head = readResponseHead();
        if (head.status() < 200 || head.status() == 204 || head.status() == 304) {
            return head;
        }
        try {
            return RawResponseReader.readBody(in, head);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** Reads a status line and header block only. */
    public RawResponse readResponseHead() {
        try {
            return RawResponseReader.readHead(in);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** Reads exactly this many bytes: a streamed body's first chunk after {@link #readResponseHead()}, say. */
    public byte[] readBytes(int count) {
        try {
            byte[] bytes = in.readNBytes(count);
            if (bytes.length < count) {
                throw new EOFException("closed after " + bytes.length + " of " + count + " bytes");
            }
            return bytes;
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** Whether the server closed the connection within the read timeout (reading and dropping any bytes before the close). */
    public boolean isClosedByPeer() {
        try {
            byte[] sink = new byte[8192];
            while (in.read(sink) >= 0) {
                // Bytes before the close are not this method's concern.
            }
            return true;
        } catch (SocketTimeoutException e) {
            return false;
        } catch (SocketException e) {
            return true; // A reset is a close too.
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** Reads whatever arrives until the server closes, as text. */
    public String readUntilClose() {
        try {
            ByteArrayOutputStream all = new ByteArrayOutputStream();
            in.transferTo(all);
            return all.toString(StandardCharsets.ISO_8859_1);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    @Override
    public void close() {
        try {
            socket.close();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
