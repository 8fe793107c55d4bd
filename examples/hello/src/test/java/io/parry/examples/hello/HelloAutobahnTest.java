package io.parry.examples.hello;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.parry.server.Server;
import java.io.File;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A quick subset of the Autobahn|Testsuite cases, run by kosoku against {@code /ws/echo}: framing, pings,
 * reserved bits, opcodes, fragments, UTF-8, close codes, limits and permessage-deflate. {@code
 * benchmarks/autobahn.sh} runs the whole suite.
 */
class HelloAutobahnTest {
    private static final List<String> QUICK_CASES = List.of(
            "1.*", "2.*", "3.*", "4.*", "5.*", "6.2.*", "6.3.*", "6.4.*", "6.5.*", "6.6.*", "7.*", "9.1.1", "9.2.1",
            "10.*", "12.1.1", "12.1.2", "12.2.3", "13.1.1", "13.2.1", "13.3.1", "13.5.1", "13.7.1");
    private static final Set<String> PASSING = Set.of("OK", "NON-STRICT", "INFORMATIONAL");

    @Test
    void echoPassesTheQuickAutobahnCases(@TempDir Path reports) throws Exception {
        assumeTrue(kosokuInstalled(), "kosoku is not installed: pip install kosoku (CI: .ci/tools.sh)");
        Server server = HelloApp.start(0);
        try {
            List<String> command = new ArrayList<>(List.of("kosoku", "-p", "4", "-o", reports.toString()));
            QUICK_CASES.forEach(pattern -> command.addAll(List.of("-i", pattern)));
            command.add("ws://127.0.0.1:" + server.port() + "/ws/echo");
            Process kosoku = new ProcessBuilder(command)
                    .redirectErrorStream(true)
                    .redirectOutput(reports.resolve("kosoku.log").toFile())
                    .start();
            assertThat(kosoku.waitFor(5, TimeUnit.MINUTES))
                    .as("kosoku finished")
                    .isTrue();
        } finally {
            server.stop(Duration.ofSeconds(1));
        }

        List<String> failed = failedCases(reports.resolve("index.json"));
        assertThat(failed).as(Files.readString(reports.resolve("kosoku.log"))).isEmpty();
    }

    /** Each case whose behaviour or close behaviour is not a pass, with what it was. */
    static List<String> failedCases(Path index) throws IOException {
        JsonNode agents = new ObjectMapper().readTree(index.toFile());
        List<String> failed = new ArrayList<>();
        for (Iterator<JsonNode> agent = agents.elements(); agent.hasNext(); ) {
            for (Iterator<Map.Entry<String, JsonNode>> cases = agent.next().fields(); cases.hasNext(); ) {
                Map.Entry<String, JsonNode> entry = cases.next();
                String behavior = entry.getValue().path("behavior").asText();
                String close = entry.getValue().path("behaviorClose").asText();
                if (!PASSING.contains(behavior) || !PASSING.contains(close)) {
                    failed.add(entry.getKey() + " " + behavior + "/" + close);
                }
            }
        }
        if (failed.isEmpty() && !agents.elements().hasNext()) {
            failed.add("no case ran");
        }
        return failed;
    }

    private static boolean kosokuInstalled() {
        String path = System.getenv().getOrDefault("PATH", "");
        for (String dir : path.split(File.pathSeparator)) {
            if (Files.isExecutable(Path.of(dir, "kosoku"))) {
                return true;
            }
        }
        return false;
    }
}
