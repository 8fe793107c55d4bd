package io.parry.client;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.DatagramPacket;
import java.net.DatagramSocket;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.SocketException;
import java.util.Arrays;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * A DNS server on a loopback UDP port that answers every A query with 127.0.0.1 and any other query
 * with no records, or, when silent, reads queries and never answers.
 */
final class LoopbackNameServer implements AutoCloseable {
    private static final int HEADER = 12;
    private static final int TYPE_A = 1;

    private final DatagramSocket socket;
    private final boolean silent;
    private final AtomicInteger queries = new AtomicInteger();
    private final Thread thread;

    private LoopbackNameServer(boolean silent) {
        try {
            this.socket = new DatagramSocket(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0));
        } catch (SocketException e) {
            throw new UncheckedIOException(e);
        }
        this.silent = silent;
        this.thread = new Thread(this::serve, "loopback-name-server");
        thread.setDaemon(true);
        thread.start();
    }

    static LoopbackNameServer answering() {
        return new LoopbackNameServer(false);
    }

    static LoopbackNameServer silent() {
        return new LoopbackNameServer(true);
    }

    InetSocketAddress address() {
        return (InetSocketAddress) socket.getLocalSocketAddress();
    }

    int queries() {
        return queries.get();
    }

    @Override
    public void close() throws InterruptedException {
        socket.close();
        thread.join();
    }

    private void serve() {
        byte[] buffer = new byte[512];
        while (!socket.isClosed()) {
            DatagramPacket packet = new DatagramPacket(buffer, buffer.length);
            try {
                socket.receive(packet);
                queries.incrementAndGet();
                if (!silent) {
                    byte[] answer = answer(Arrays.copyOf(packet.getData(), packet.getLength()));
                    socket.send(new DatagramPacket(answer, answer.length, packet.getSocketAddress()));
                }
            } catch (IOException e) {
                return; // closed
            }
        }
    }

    /** The response: the query's id and question, and one A record pointing at the question's name. */
    private static byte[] answer(byte[] query) {
        int questionEnd = HEADER;
        while (query[questionEnd] != 0) {
            questionEnd += (query[questionEnd] & 0xff) + 1;
        }
        questionEnd += 5; // the root label, then type and class
        int type = ((query[questionEnd - 4] & 0xff) << 8) | (query[questionEnd - 3] & 0xff);
        boolean a = type == TYPE_A;
        byte[] record = {(byte) 0xc0, HEADER, 0, TYPE_A, 0, 1, 0, 0, 0, 60, 0, 4, 127, 0, 0, 1};
        byte[] response = Arrays.copyOf(query, questionEnd + (a ? record.length : 0));
        response[2] = (byte) 0x81; // a response, recursion desired
        response[3] = (byte) 0x80; // recursion available, no error
        response[6] = 0;
        response[7] = (byte) (a ? 1 : 0); // answers
        Arrays.fill(response, 8, HEADER, (byte) 0); // no authority or additional records
        if (a) {
            System.arraycopy(record, 0, response, questionEnd, record.length);
        }
        return response;
    }
}
