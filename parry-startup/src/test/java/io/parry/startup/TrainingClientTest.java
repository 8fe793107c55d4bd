package io.parry.startup;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.io.InputStream;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

class TrainingClientTest {
    @Test
    void sendsEachRequestOfASessionOnAConnectionOfItsOwnWithHostCloseAndLength() throws Exception {
        try (ServerSocket listener = new ServerSocket(0, 10, InetAddress.getLoopbackAddress())) {
            CompletableFuture<List<String>> received = CompletableFuture.supplyAsync(() -> accept(listener, 3));

            TrainingClient.send(
                    listener.getLocalPort(),
                    """
                    GET /a
                    ###
                    POST /b
                    Content-Type: application/json

                    {"x":1}
                    ###
                    OPTIONS /
                    Origin: http://example.com
                    """);

            assertThat(received.get(10, TimeUnit.SECONDS))
                    .containsExactly(
                            "GET /a HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n\r\n",
                            "POST /b HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n"
                                    + "Content-Type: application/json\r\nContent-Length: 7\r\n\r\n{\"x\":1}",
                            "OPTIONS / HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n"
                                    + "Origin: http://example.com\r\n\r\n");
        }
    }

    /** Accepts this many connections one after another, reading each request whole before closing it. */
    private static List<String> accept(ServerSocket listener, int connections) {
        List<String> requests = new ArrayList<>();
        try {
            for (int i = 0; i < connections; i++) {
                try (Socket socket = listener.accept()) {
                    requests.add(readRequest(socket.getInputStream()));
                }
            }
        } catch (IOException e) {
            throw new IllegalStateException(e);
        }
        return requests;
    }

    private static String readRequest(InputStream in) throws IOException {
        StringBuilder request = new StringBuilder();
        int length = -1;
        while (length < 0 || request.length() < request.indexOf("\r\n\r\n") + 4 + length) {
            int b = in.read();
            if (b < 0) {
                break;
            }
            request.append((char) b);
            if (length < 0 && request.indexOf("\r\n\r\n") >= 0) {
                int at = request.indexOf("Content-Length: ");
                length = at < 0 ? 0 : Integer.parseInt(request.substring(at + 16, request.indexOf("\r\n", at)));
            }
        }
        return new String(request.toString().getBytes(StandardCharsets.ISO_8859_1), StandardCharsets.US_ASCII);
    }
}
