package io.parry.examples.todo;

import io.parry.demo.todo.TodoService;
import io.parry.server.Server;
import io.parry.startup.Startup;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.io.UncheckedIOException;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.time.Duration;

/**
 * The run the example's build records its class-data-sharing archive from: starts the service on a
 * free port of 127.0.0.1, makes the calls of a short Todo-Backend session and of the documentation,
 * then stops. Run with {@code -XX:ArchiveClassesAtExit}, the JVM then writes the classes they loaded
 * into the archive that {@code -XX:SharedArchiveFile} maps at the next start (see the README).
 */
public final class TrainingRun {
    private TrainingRun() {}

    public static void main(String[] args) {
        Startup.prepare();
        Server server = Server.builder()
                .host("127.0.0.1")
                .port(0)
                .handler(TodoService.handler())
                .build()
                .start();
        try {
            int port = server.port();
            call(port, "GET / HTTP/1.1", "");
            call(port, "POST / HTTP/1.1", "{\"title\":\"buy milk\",\"order\":1}");
            call(port, "POST / HTTP/1.1", "{\"title\":\"\"}");
            call(port, "GET /todos/1 HTTP/1.1", "");
            call(port, "PATCH /todos/1 HTTP/1.1", "{\"completed\":true}");
            call(port, "DELETE /todos/1 HTTP/1.1", "");
            call(port, "OPTIONS / HTTP/1.1\r\nOrigin: http://example.com\r\nAccess-Control-Request-Method: POST", "");
            call(port, "GET /openapi.json HTTP/1.1", "");
            call(port, "GET /docs HTTP/1.1", "");
        } finally {
            server.stop(Duration.ofSeconds(1));
        }
    }

    private static void call(int port, String head, String json) {
        try (Socket socket = new Socket("127.0.0.1", port)) {
            String body =
                    json.isEmpty() ? "" : "Content-Type: application/json\r\nContent-Length: " + json.length() + "\r\n";
            OutputStream out = socket.getOutputStream();
            out.write((head + "\r\nHost: 127.0.0.1\r\nConnection: close\r\n" + body + "\r\n" + json)
                    .getBytes(StandardCharsets.US_ASCII));
            out.flush();
            InputStream in = socket.getInputStream();
            in.readAllBytes();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
