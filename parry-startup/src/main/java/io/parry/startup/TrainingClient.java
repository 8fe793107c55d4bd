package io.parry.startup;

import java.io.IOException;
import java.io.OutputStream;
import java.io.UncheckedIOException;
import java.net.Socket;
import java.nio.charset.StandardCharsets;

/**
 * Calls a service of this process the way its clients would, for a training run: a build that runs
 * its service once under {@code -XX:ArchiveClassesAtExit}, so that the JVM writes the classes those
 * calls loaded into the class-data-sharing archive that {@code -XX:SharedArchiveFile} maps at the
 * next start. Plain HTTP/1.1 on sockets of 127.0.0.1, so that the client itself loads next to
 * nothing the service does not.
 *
 * <pre>{@code
 * TrainingClient.send(server.port(), """
 *         GET /todos
 *         ###
 *         POST /todos
 *         Content-Type: application/json
 *
 *         {"title":"buy milk"}
 *         """);
 * }</pre>
 */
public final class TrainingClient {
    private static final String SEPARATOR = "###\n";

    private TrainingClient() {}

    /**
     * Sends the requests of a session one after another, each on a connection of its own, and reads
     * each answer to the end. Requests are separated by a line {@code ###}; each is a request line
     * without the version ({@code GET /path}), any header lines, and after an empty line its body.
     * {@code Host}, {@code Connection: close} and a {@code Content-Length} for a body are added.
     *
     * @throws UncheckedIOException when the service cannot be reached
     */
    public static void send(int port, String session) {
        for (String request : session.split(SEPARATOR)) {
            call(port, request);
        }
    }

    private static void call(int port, String request) {
        int end = request.indexOf("\n\n");
        String head = (end < 0 ? request : request.substring(0, end)).strip();
        String body = end < 0 ? "" : request.substring(end + 2).strip();
        int lineEnd = head.indexOf('\n');
        String line = lineEnd < 0 ? head : head.substring(0, lineEnd);
        String fields = lineEnd < 0 ? "" : head.substring(lineEnd + 1).replace("\n", "\r\n") + "\r\n";
        String length = body.isEmpty() ? "" : "Content-Length: " + body.length() + "\r\n";
        String message =
                line + " HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n" + fields + length + "\r\n" + body;
        try (Socket socket = new Socket("127.0.0.1", port)) {
            OutputStream out = socket.getOutputStream();
            out.write(message.getBytes(StandardCharsets.US_ASCII));
            out.flush();
            socket.getInputStream().readAllBytes();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
