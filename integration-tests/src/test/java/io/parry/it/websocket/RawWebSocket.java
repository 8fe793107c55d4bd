package io.parry.it.websocket;

import java.io.ByteArrayOutputStream;
import java.io.DataInputStream;
import java.io.IOException;
import java.io.OutputStream;
import java.net.Socket;
import java.net.SocketException;
import java.nio.charset.StandardCharsets;
import java.util.concurrent.ThreadLocalRandom;

/** A WebSocket client over a raw socket, for frames a real client never sends (RFC 6455, section 5.2). */
final class RawWebSocket implements AutoCloseable {
    static final int CONTINUATION = 0;
    static final int TEXT = 1;
    static final int BINARY = 2;
    static final int CLOSE = 8;
    static final int PING = 9;
    static final int PONG = 10;

    private final Socket socket;
    private final DataInputStream in;
    private final OutputStream out;
    final String responseHead;

    private RawWebSocket(Socket socket, String responseHead, DataInputStream in) throws IOException {
        this.socket = socket;
        this.in = in;
        this.out = socket.getOutputStream();
        this.responseHead = responseHead;
    }

    /** Connects and sends an opening handshake with these extra header lines (each ending in CRLF). */
    static RawWebSocket open(int port, String path, String extraHeaders) throws IOException {
        Socket socket = new Socket("127.0.0.1", port);
        socket.setSoTimeout(10_000);
        socket.getOutputStream()
                .write(("GET " + path + " HTTP/1.1\r\nHost: 127.0.0.1\r\nUpgrade: websocket\r\nConnection: Upgrade\r\n"
                                + "Sec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\nSec-WebSocket-Version: 13\r\n"
                                + extraHeaders + "\r\n")
                        .getBytes(StandardCharsets.US_ASCII));
        DataInputStream in = new DataInputStream(socket.getInputStream());
        ByteArrayOutputStream head = new ByteArrayOutputStream();
        while (!head.toString(StandardCharsets.US_ASCII).endsWith("\r\n\r\n")) {
            int b = in.read();
            if (b < 0) {
                break;
            }
            head.write(b);
        }
        return new RawWebSocket(socket, head.toString(StandardCharsets.US_ASCII), in);
    }

    int status() {
        return Integer.parseInt(responseHead.substring(9, 12));
    }

    /** Sends a masked frame. */
    RawWebSocket send(boolean fin, int rsv, int opcode, byte[] payload) throws IOException {
        ByteArrayOutputStream frame = new ByteArrayOutputStream(payload.length + 14);
        frame.write((fin ? 0x80 : 0) | (rsv << 4) | opcode);
        if (payload.length < 126) {
            frame.write(0x80 | payload.length);
        } else if (payload.length < 65536) {
            frame.write(0x80 | 126);
            frame.write(payload.length >>> 8);
            frame.write(payload.length);
        } else {
            frame.write(0x80 | 127);
            for (int shift = 56; shift >= 0; shift -= 8) {
                frame.write((int) ((long) payload.length >>> shift));
            }
        }
        byte[] mask = new byte[4];
        ThreadLocalRandom.current().nextBytes(mask);
        frame.write(mask);
        byte[] masked = new byte[payload.length];
        for (int i = 0; i < payload.length; i++) {
            masked[i] = (byte) (payload[i] ^ mask[i & 3]);
        }
        frame.write(masked);
        out.write(frame.toByteArray());
        out.flush();
        return this;
    }

    RawWebSocket sendText(String text) throws IOException {
        return send(true, 0, TEXT, text.getBytes(StandardCharsets.UTF_8));
    }

    RawWebSocket sendClose(int code) throws IOException {
        return send(true, 0, CLOSE, new byte[] {(byte) (code >>> 8), (byte) code});
    }

    /** Reads one frame the server sent. */
    Frame read() throws IOException {
        int first = in.readUnsignedByte();
        int second = in.readUnsignedByte();
        long length = second & 0x7F;
        if (length == 126) {
            length = in.readUnsignedShort();
        } else if (length == 127) {
            length = in.readLong();
        }
        byte[] payload = new byte[(int) length];
        in.readFully(payload);
        return new Frame((first & 0x80) != 0, (first >>> 4) & 7, first & 0x0F, payload);
    }

    /** Reads frames until a close frame, and returns its code (1005 for none). */
    int readCloseCode() throws IOException {
        Frame frame;
        do {
            frame = read();
        } while (frame.opcode() != CLOSE);
        return frame.payload().length < 2 ? 1005 : ((frame.payload()[0] & 0xFF) << 8) | (frame.payload()[1] & 0xFF);
    }

    /** Whether the server closed the connection: reads and drops whatever comes first. */
    boolean isClosedByServer() throws IOException {
        try {
            return in.read(new byte[8192]) < 0 || isClosedByServer();
        } catch (SocketException e) {
            return true;
        }
    }

    @Override
    public void close() throws IOException {
        socket.close();
    }

    record Frame(boolean fin, int rsv, int opcode, byte[] payload) {
        String text() {
            return new String(payload, StandardCharsets.UTF_8);
        }
    }
}
