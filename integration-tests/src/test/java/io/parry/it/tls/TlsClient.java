package io.parry.it.tls;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.security.cert.X509Certificate;
import java.util.List;
import javax.net.ssl.SNIHostName;
import javax.net.ssl.SSLContext;
import javax.net.ssl.SSLParameters;
import javax.net.ssl.SSLSocket;

/** A raw TLS client on an {@link SSLSocket}: chosen SNI, protocol, and HTTP/1.1 written by hand. */
final class TlsClient implements AutoCloseable {
    private final SSLSocket socket;
    private final InputStream in;
    private final OutputStream out;

    private TlsClient(SSLSocket socket) throws IOException {
        this.socket = socket;
        this.in = socket.getInputStream();
        this.out = socket.getOutputStream();
    }

    /** Connects to 127.0.0.1 and completes the handshake, naming {@code sni} (null for none). */
    static TlsClient connect(SSLContext context, int port, String sni, String... protocols) throws IOException {
        SSLSocket socket = handshake(context, port, sni, "http/1.1", protocols);
        return new TlsClient(socket);
    }

    /** Connects to 127.0.0.1 naming {@code localhost} and offering these ALPN protocols (none: no ALPN extension). */
    static TlsClient offering(SSLContext context, int port, String... alpn) throws IOException {
        return new TlsClient(handshake(context, port, "localhost", alpn));
    }

    /** A socket connected to 127.0.0.1 whose handshake named {@code sni} and offered {@code alpn} by ALPN. */
    static SSLSocket handshake(SSLContext context, int port, String sni, String alpn, String... protocols)
            throws IOException {
        return handshake(context, port, sni, new String[] {alpn}, protocols);
    }

    private static SSLSocket handshake(SSLContext context, int port, String sni, String[] alpn, String... protocols)
            throws IOException {
        Socket plain = new Socket();
        plain.connect(new InetSocketAddress("127.0.0.1", port), 5000);
        plain.setSoTimeout(10_000);
        SSLSocket socket = (SSLSocket) context.getSocketFactory().createSocket(plain, "127.0.0.1", port, true);
        SSLParameters parameters = socket.getSSLParameters();
        parameters.setServerNames(sni == null ? List.of() : List.of(new SNIHostName(sni)));
        if (protocols.length > 0) {
            parameters.setProtocols(protocols);
        }
        if (alpn.length > 0) {
            parameters.setApplicationProtocols(alpn);
        }
        socket.setSSLParameters(parameters);
        socket.startHandshake();
        return socket;
    }

    SSLSocket socket() {
        return socket;
    }

    X509Certificate serverCertificate() throws IOException {
        return (X509Certificate) socket.getSession().getPeerCertificates()[0];
    }

    /** Sends a GET for {@code path} with this {@code Host} and reads one response: status line and body. */
    Response get(String host, String path) throws IOException {
        return send("GET " + path + " HTTP/1.1\r\nHost: " + host + "\r\n\r\n");
    }

    /** Sends a request written out in full and reads one response. */
    Response send(String request) throws IOException {
        out.write(request.getBytes(StandardCharsets.US_ASCII));
        out.flush();
        String head = readHead();
        int length = 0;
        for (String line : head.split("\r\n")) {
            if (line.regionMatches(true, 0, "content-length:", 0, 15)) {
                length = Integer.parseInt(line.substring(15).trim());
            }
        }
        byte[] body = in.readNBytes(length);
        return new Response(Integer.parseInt(head.substring(9, 12)), head, new String(body, StandardCharsets.UTF_8));
    }

    private String readHead() throws IOException {
        ByteArrayOutputStream head = new ByteArrayOutputStream();
        int matched = 0;
        while (matched < 4) {
            int b = in.read();
            if (b < 0) {
                throw new IOException("closed after " + head);
            }
            head.write(b);
            matched = (b == '\r' && (matched == 0 || matched == 2)) || (b == '\n' && (matched == 1 || matched == 3))
                    ? matched + 1
                    : 0;
        }
        return head.toString(StandardCharsets.US_ASCII);
    }

    /** Whether the server closed the connection: a read ends or fails. */
    boolean isClosedByServer() {
        try {
            return in.read() < 0;
        } catch (IOException e) {
            return true;
        }
    }

    @Override
    public void close() throws IOException {
        socket.close();
    }

    record Response(int status, String head, String body) {}
}
