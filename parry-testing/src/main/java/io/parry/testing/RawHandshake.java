package io.parry.testing;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.SocketChannel;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.Base64;
import java.util.Locale;

/**
 * A WebSocket opening handshake (RFC 6455, section 4) on a raw blocking socket, either side: for tests whose peer
 * then sends frames no real client or server would, such as a {@link FrameFlood}.
 */
public final class RawHandshake {
    private static final String GUID = "258EAFA5-E914-47DA-95CA-C5AB0DC85B11";
    private static final String KEY = "dGhlIHNhbXBsZSBub25jZQ==";

    private RawHandshake() {}

    /** As a client: asks for an upgrade of {@code path} and returns the response's head, status line included. */
    public static String open(SocketChannel channel, String path) throws IOException {
        write(
                channel,
                "GET " + path + " HTTP/1.1\r\nHost: 127.0.0.1\r\nUpgrade: websocket\r\nConnection: Upgrade\r\n"
                        + "Sec-WebSocket-Key: " + KEY + "\r\nSec-WebSocket-Version: 13\r\n\r\n");
        return readHead(channel);
    }

    /** As a server: reads the client's request and answers {@code 101} with the key's accept value (section 4.2.2). */
    public static void accept(SocketChannel channel) throws IOException {
        String key = readHead(channel)
                .lines()
                .filter(line -> line.toLowerCase(Locale.ROOT).startsWith("sec-websocket-key:"))
                .findFirst()
                .orElseThrow(() -> new IOException("no Sec-WebSocket-Key in the request"))
                .substring("sec-websocket-key:".length())
                .trim();
        write(
                channel,
                "HTTP/1.1 101 Switching Protocols\r\nUpgrade: websocket\r\nConnection: Upgrade\r\n"
                        + "Sec-WebSocket-Accept: " + acceptValue(key) + "\r\n\r\n");
    }

    /** Reads byte by byte up to the blank line, so that no frame after the head is taken. */
    private static String readHead(SocketChannel channel) throws IOException {
        ByteArrayOutputStream head = new ByteArrayOutputStream();
        ByteBuffer one = ByteBuffer.allocate(1);
        while (!head.toString(StandardCharsets.US_ASCII).endsWith("\r\n\r\n")) {
            one.clear();
            if (channel.read(one) < 0) {
                throw new IOException("the connection closed in the handshake: " + head);
            }
            head.write(one.get(0));
        }
        return head.toString(StandardCharsets.US_ASCII);
    }

    private static String acceptValue(String key) {
        try {
            byte[] digest = MessageDigest.getInstance("SHA-1").digest((key + GUID).getBytes(StandardCharsets.US_ASCII));
            return Base64.getEncoder().encodeToString(digest);
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException("SHA-1 is required of every JVM", e);
        }
    }

    private static void write(SocketChannel channel, String text) throws IOException {
        ByteBuffer bytes = ByteBuffer.wrap(text.getBytes(StandardCharsets.US_ASCII));
        while (bytes.hasRemaining()) {
            channel.write(bytes);
        }
    }
}
