package io.parry.testing;

import static java.nio.charset.StandardCharsets.ISO_8859_1;

import java.io.BufferedInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.Socket;

/**
 * One connection accepted by a {@link FaultyUpstream}, served on its own thread: reads requests in
 * a keep-alive loop and answers each as the fault chosen for it says.
 */
final class UpstreamConnection implements Runnable {
    private static final byte[] GARBAGE = "garbage: this is not an HTTP response\r\n\r\n".getBytes(ISO_8859_1);

    private final FaultyUpstream upstream;
    private final Socket socket;

    UpstreamConnection(FaultyUpstream upstream, Socket socket) {
        this.upstream = upstream;
        this.socket = socket;
    }

    @Override
    public void run() {
        try {
            serve();
        } catch (IOException e) {
            // The client went away or the upstream closed the socket: either way the connection is over.
        } finally {
            close();
            upstream.connectionEnded(this);
        }
    }

    /** Closes the socket, which ends a blocked read or write on the connection's thread. */
    void close() {
        try {
            socket.close();
        } catch (IOException e) {
            // Closing is all that is asked; a failure leaves nothing to do.
        }
    }

    private void serve() throws IOException {
        socket.setTcpNoDelay(true);
        InputStream in = new BufferedInputStream(socket.getInputStream());
        OutputStream out = socket.getOutputStream();
        for (UpstreamRequest request = UpstreamRequest.read(in); request != null; request = UpstreamRequest.read(in)) {
            Fault fault = upstream.received(request);
            if (!answer(request, fault, out) || !request.keepAlive()) {
                return;
            }
        }
    }

    /** Answers as the fault says; false when the fault ended the connection. */
    private boolean answer(UpstreamRequest request, Fault fault, OutputStream out) throws IOException {
        CannedResponse response =
                fault.kind() == Fault.Kind.STATUS ? CannedResponse.empty(fault.status()) : upstream.response();
        byte[] head = response.head(!request.keepAlive());
        byte[] body = request.isHead() ? new byte[0] : response.body();
        int half = body.length / 2;
        switch (fault.kind()) {
            case NONE, STATUS -> send(out, head, body, body.length);
            case SLOW_FIRST_BYTE -> {
                if (!upstream.pause(fault.delay())) {
                    return false;
                }
                send(out, head, body, body.length);
            }
            case SLOW_BODY -> {
                send(out, head, body, half);
                if (!upstream.pause(fault.delay())) {
                    return false;
                }
                out.write(body, half, body.length - half);
            }
            case RESET_MID_BODY -> {
                send(out, head, body, half);
                socket.setSoLinger(true, 0); // Closing with a zero linger time sends RST instead of FIN.
                socket.close();
                return false;
            }
            case CLOSE_MID_BODY -> {
                send(out, head, body, half);
                socket.shutdownOutput();
                return false;
            }
            case GARBAGE -> {
                out.write(GARBAGE);
                socket.shutdownOutput();
                return false;
            }
            case CLOSE_BEFORE_RESPONSE -> {
                socket.shutdownOutput();
                return false;
            }
            case CLOSE_AFTER_RESPONSE -> {
                send(out, head, body, body.length);
                socket.shutdownOutput();
                return false;
            }
        }
        return true;
    }

    /** Sends the head and the first bytes of the body in one write. */
    private static void send(OutputStream out, byte[] head, byte[] body, int bodyBytes) throws IOException {
        byte[] bytes = new byte[head.length + bodyBytes];
        System.arraycopy(head, 0, bytes, 0, head.length);
        System.arraycopy(body, 0, bytes, head.length, bodyBytes);
        out.write(bytes);
    }
}
