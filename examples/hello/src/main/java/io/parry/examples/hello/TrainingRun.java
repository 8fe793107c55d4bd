package io.parry.examples.hello;

import io.parry.server.Server;
import io.parry.startup.Startup;
import io.parry.startup.TrainingClient;
import java.time.Duration;

/**
 * The run the example's build records its class-data-sharing archive from: starts the service on a
 * free port, calls its plaintext, JSON, echo, delay and server-sent-events routes once, then stops.
 * Run with {@code -XX:ArchiveClassesAtExit}, the JVM then writes the classes they loaded into the
 * archive that {@code -XX:SharedArchiveFile} maps at the next start (see the README).
 */
public final class TrainingRun {
    private static final String SESSION =
            """
            GET /plaintext
            ###
            GET /json
            ###
            POST /echo
            Content-Type: text/plain

            Hello, World!
            ###
            GET /delay?ms=1
            ###
            GET /sse/ticks?n=1
            ###
            GET /nowhere
            """;

    private TrainingRun() {}

    public static void main(String[] args) {
        Startup.prepare();
        Server server = HelloApp.start(0);
        try {
            TrainingClient.send(server.port(), SESSION);
        } finally {
            server.stop(Duration.ofSeconds(1));
        }
    }
}
