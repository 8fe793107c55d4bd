package io.parry.testing;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.util.function.Consumer;

/** A listening socket on 127.0.0.1 and the thread that accepts its connections. */
final class UpstreamListener {
    static final String HOST = "127.0.0.1";

    private final ServerSocket socket;
    private final Thread acceptor;

    private UpstreamListener(ServerSocket socket, Consumer<Socket> accepted) {
        this.socket = socket;
        this.acceptor = new Thread(() -> accept(accepted), "faulty-upstream-" + port() + "-acceptor");
        acceptor.setDaemon(true);
    }

    /**
     * Listens on this port (0 for an ephemeral one) and hands each accepted connection to the
     * consumer, on the acceptor thread.
     */
    static UpstreamListener open(int port, Consumer<Socket> accepted) {
        ServerSocket socket = null;
        try {
            socket = new ServerSocket();
            socket.setReuseAddress(true); // Rebinding the port must not wait for its TIME_WAIT connections.
            socket.bind(new InetSocketAddress(HOST, port));
        } catch (IOException e) {
            closeQuietly(socket);
            throw new UncheckedIOException("cannot listen on " + HOST + ":" + port, e);
        }
        UpstreamListener listener = new UpstreamListener(socket, accepted);
        listener.acceptor.start();
        return listener;
    }

    int port() {
        return socket.getLocalPort();
    }

    boolean isClosed() {
        return socket.isClosed();
    }

    /** Stops listening, so connections are refused, and waits for the acceptor thread to end. */
    void close() {
        closeQuietly(socket);
        FaultyUpstream.join(acceptor);
    }

    private void accept(Consumer<Socket> accepted) {
        while (!socket.isClosed()) {
            try {
                accepted.accept(socket.accept());
            } catch (IOException e) {
                // Closing the socket ends accept(); the loop condition then ends the thread.
            }
        }
    }

    private static void closeQuietly(ServerSocket socket) {
        if (socket == null) {
            return;
        }
        try {
            socket.close();
        } catch (IOException e) {
            // Closing is all that is asked; a failure leaves nothing to do.
        }
    }
}
