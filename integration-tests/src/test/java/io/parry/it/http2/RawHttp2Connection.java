package io.parry.it.http2;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.ByteBufUtil;
import io.netty.buffer.Unpooled;
import io.netty.handler.codec.http2.DefaultHttp2Headers;
import io.netty.handler.codec.http2.DefaultHttp2HeadersDecoder;
import io.netty.handler.codec.http2.DefaultHttp2HeadersEncoder;
import io.netty.handler.codec.http2.Http2Exception;
import io.netty.handler.codec.http2.Http2Headers;
import java.io.ByteArrayOutputStream;
import java.io.DataInputStream;
import java.io.EOFException;
import java.io.IOException;
import java.io.OutputStream;
import java.io.UncheckedIOException;
import java.net.Socket;
import java.net.SocketException;
import java.net.SocketTimeoutException;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.util.function.Predicate;

/**
 * An HTTP/2 client that writes frames as given, however hostile, and reads the server's frames one
 * by one: for the protocol edges and attacks no well-behaved client library can send. HPACK is
 * Netty's; everything else is bytes on a socket.
 */
public final class RawHttp2Connection implements AutoCloseable {
    static final int DATA = 0;
    static final int HEADERS = 1;
    static final int RST_STREAM = 3;
    static final int SETTINGS = 4;
    static final int PING = 6;
    static final int GOAWAY = 7;
    static final int WINDOW_UPDATE = 8;
    static final int CONTINUATION = 9;
    static final int END_STREAM = 0x1;
    static final int ACK = 0x1;
    static final int END_HEADERS = 0x4;

    private final Socket socket;
    private final DataInputStream in;
    private final OutputStream out;
    private final DefaultHttp2HeadersEncoder encoder = new DefaultHttp2HeadersEncoder();
    private final DefaultHttp2HeadersDecoder decoder = new DefaultHttp2HeadersDecoder(false, 1 << 24);
    private ByteArrayOutputStream held;

    private RawHttp2Connection(Socket socket) throws IOException {
        this.socket = socket;
        this.in = new DataInputStream(socket.getInputStream());
        this.out = socket.getOutputStream();
        socket.setSoTimeout(10_000);
    }

    /** Connects, sends the preface and these settings (pairs of id and value), and acknowledges the server's. */
    static RawHttp2Connection open(int port, int... settings) {
        try {
            return open(new Socket("127.0.0.1", port), settings);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** As {@link #open(int, int...)}, on a connected socket: a TLS one whose ALPN chose {@code h2}, say. */
    public static RawHttp2Connection open(Socket socket, int... settings) {
        try {
            RawHttp2Connection connection = new RawHttp2Connection(socket);
            ByteBuffer payload = ByteBuffer.allocate(settings.length / 2 * 6);
            for (int i = 0; i < settings.length; i += 2) {
                payload.putShort((short) settings[i]).putInt(settings[i + 1]);
            }
            connection.out.write("PRI * HTTP/2.0\r\n\r\nSM\r\n\r\n".getBytes(StandardCharsets.US_ASCII));
            connection.frame(SETTINGS, 0, 0, payload.array());
            connection.await(frame -> frame.type() == SETTINGS && (frame.flags() & ACK) == 0);
            return connection;
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** A GET request's header block for this path. */
    public static Http2Headers get(String path) {
        return request("GET", path);
    }

    static Http2Headers request(String method, String path) {
        return new DefaultHttp2Headers()
                .method(method)
                .scheme("http")
                .path(path)
                .authority("localhost");
    }

    /** Sends one frame as given. */
    void frame(int type, int flags, int streamId, byte[] payload) {
        ByteBuffer header = ByteBuffer.allocate(9 + payload.length);
        header.put((byte) (payload.length >>> 16))
                .put((byte) (payload.length >>> 8))
                .put((byte) payload.length);
        header.put((byte) type).put((byte) flags).putInt(streamId).put(payload);
        if (held != null) {
            held.writeBytes(header.array());
        } else {
            write(header.array());
        }
    }

    /**
     * Sends the frames that {@code frames} writes in one write. A flood written frame by frame can be
     * cut short: a test thread descheduled mid-flood lets the server end the connection, and the
     * writes still to come fail with a broken pipe; written at once, it reaches the server whole.
     */
    void atOnce(Runnable frames) {
        held = new ByteArrayOutputStream();
        try {
            frames.run();
        } finally {
            byte[] bytes = held.toByteArray();
            held = null;
            write(bytes);
        }
    }

    private void write(byte[] bytes) {
        try {
            out.write(bytes);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** HPACK-encodes a header block with this connection's dynamic table. */
    byte[] encode(Http2Headers headers) {
        ByteBuf buffer = Unpooled.buffer();
        try {
            encoder.encodeHeaders(1, headers, buffer);
            return ByteBufUtil.getBytes(buffer);
        } catch (Http2Exception e) {
            throw new IllegalStateException(e);
        } finally {
            buffer.release();
        }
    }

    public void headers(int streamId, Http2Headers headers, boolean endStream) {
        frame(HEADERS, END_HEADERS | (endStream ? END_STREAM : 0), streamId, encode(headers));
    }

    void data(int streamId, byte[] data, boolean endStream) {
        frame(DATA, endStream ? END_STREAM : 0, streamId, data);
    }

    void data(int streamId, String data, boolean endStream) {
        data(streamId, data.getBytes(StandardCharsets.UTF_8), endStream);
    }

    void rst(int streamId, int errorCode) {
        frame(RST_STREAM, 0, streamId, ByteBuffer.allocate(4).putInt(errorCode).array());
    }

    void ping() {
        frame(PING, 0, 0, new byte[8]);
    }

    void windowUpdate(int streamId, int increment) {
        frame(
                WINDOW_UPDATE,
                0,
                streamId,
                ByteBuffer.allocate(4).putInt(increment).array());
    }

    /** The next frame from the server; acknowledges its SETTINGS on the way. */
    Frame next() {
        try {
            int length = in.readUnsignedByte() << 16 | in.readUnsignedByte() << 8 | in.readUnsignedByte();
            int type = in.readUnsignedByte();
            int flags = in.readUnsignedByte();
            int streamId = in.readInt() & 0x7fffffff;
            byte[] payload = new byte[length];
            in.readFully(payload);
            Frame frame = new Frame(type, flags, streamId, payload);
            if (type == SETTINGS && (flags & ACK) == 0) {
                frame(SETTINGS, ACK, 0, new byte[0]);
            }
            return frame;
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** Reads frames until one matches. */
    Frame await(Predicate<Frame> wanted) {
        while (true) {
            Frame frame = next();
            if (wanted.test(frame)) {
                return frame;
            }
        }
    }

    /** Reads frames until GOAWAY and returns its error code. */
    int awaitGoAway() {
        return ByteBuffer.wrap(await(frame -> frame.type() == GOAWAY).payload(), 4, 4)
                .getInt();
    }

    /** Reads frames until RST_STREAM on this stream and returns its error code. */
    int awaitReset(int streamId) {
        return ByteBuffer.wrap(await(frame -> frame.type() == RST_STREAM && frame.streamId() == streamId)
                        .payload())
                .getInt();
    }

    /** Reads the response on this stream to its end: the head, the body and any trailers. */
    public Response response(int streamId) {
        Http2Headers head = null;
        Http2Headers trailers = null;
        ByteArrayOutputStream body = new ByteArrayOutputStream();
        while (true) {
            Frame frame = next();
            if (frame.type() == RST_STREAM && frame.streamId() == streamId) {
                throw new IllegalStateException("stream " + streamId + " reset: "
                        + ByteBuffer.wrap(frame.payload()).getInt());
            }
            if (frame.type() == GOAWAY) {
                throw new IllegalStateException(
                        "GOAWAY: " + ByteBuffer.wrap(frame.payload(), 4, 4).getInt());
            }
            if (frame.streamId() != streamId) {
                continue;
            }
            if (frame.type() == HEADERS) {
                Http2Headers headers = decode(frame.payload());
                if (head == null || head.status().charAt(0) == '1') {
                    head = headers;
                } else {
                    trailers = headers;
                }
            } else if (frame.type() == DATA) {
                body.writeBytes(frame.payload());
            }
            if ((frame.flags() & END_STREAM) != 0) {
                return new Response(head, body.toByteArray(), trailers);
            }
        }
    }

    Http2Headers decode(byte[] block) {
        ByteBuf buffer = Unpooled.wrappedBuffer(block);
        try {
            return decoder.decodeHeaders(1, buffer);
        } catch (Http2Exception e) {
            throw new IllegalStateException(e);
        } finally {
            buffer.release();
        }
    }

    /** Whether the server closed the connection: reads and drops frames until the end of the stream. */
    boolean isClosedByPeer() {
        try {
            while (true) {
                next();
            }
        } catch (UncheckedIOException e) {
            return e.getCause() instanceof EOFException || e.getCause() instanceof SocketException;
        }
    }

    /** Whether nothing arrives in this many milliseconds. */
    boolean isQuietFor(int millis) {
        try {
            socket.setSoTimeout(millis);
            next();
            return false;
        } catch (SocketException e) {
            return false;
        } catch (UncheckedIOException e) {
            return e.getCause() instanceof SocketTimeoutException;
        } finally {
            try {
                socket.setSoTimeout(10_000);
            } catch (SocketException ignored) {
                // Closed: the next read says so.
            }
        }
    }

    @Override
    public void close() {
        try {
            socket.close();
        } catch (IOException ignored) {
            // Closing anyway.
        }
    }

    record Frame(int type, int flags, int streamId, byte[] payload) {}

    public record Response(Http2Headers head, byte[] body, Http2Headers trailers) {
        int status() {
            return Integer.parseInt(head.status().toString());
        }

        String bodyText() {
            return new String(body, StandardCharsets.UTF_8);
        }
    }
}
