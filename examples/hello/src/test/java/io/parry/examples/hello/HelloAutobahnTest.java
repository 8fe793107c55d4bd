package io.parry.examples.hello;

import static org.assertj.core.api.Assertions.assertThat;

import io.parry.server.Server;
import io.parry.testing.Autobahn;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A quick subset of the Autobahn|Testsuite cases, run by kosoku against {@code /ws/echo} ({@link
 * Autobahn#QUICK_CASES}); {@code benchmarks/autobahn.sh} runs the whole suite.
 */
class HelloAutobahnTest {
    @Test
    void echoPassesTheQuickAutobahnCases(@TempDir Path reports) throws Exception {
        Server server = HelloApp.start(0);
        List<String> failed;
        try {
            failed =
                    Autobahn.failedCases("ws://127.0.0.1:" + server.port() + "/ws/echo", Autobahn.QUICK_CASES, reports);
        } finally {
            server.stop(Duration.ofSeconds(1));
        }

        assertThat(failed).isEmpty();
    }
}
