package io.parry.examples.todo;

import io.parry.demo.todo.TodoService;
import io.parry.server.Server;
import io.parry.startup.Startup;
import io.parry.startup.TrainingClient;
import java.time.Duration;

/**
 * The run the example's build records its class-data-sharing archive from: starts the service on a
 * free port of 127.0.0.1, makes the calls of a short Todo-Backend session and of the documentation,
 * then stops. Run with {@code -XX:ArchiveClassesAtExit}, the JVM then writes the classes they loaded
 * into the archive that {@code -XX:SharedArchiveFile} maps at the next start (see the README).
 */
public final class TrainingRun {
    private static final String SESSION =
            """
            GET /
            ###
            POST /
            Content-Type: application/json

            {"title":"buy milk","order":1}
            ###
            POST /
            Content-Type: application/json

            {"title":""}
            ###
            GET /todos/1
            ###
            PATCH /todos/1
            Content-Type: application/json

            {"completed":true}
            ###
            DELETE /todos/1
            ###
            OPTIONS /
            Origin: http://example.com
            Access-Control-Request-Method: POST
            ###
            GET /openapi.json
            ###
            GET /docs
            """;

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
            TrainingClient.send(server.port(), SESSION);
        } finally {
            server.stop(Duration.ofSeconds(1));
        }
    }
}
