package io.parry.testing;

import static org.junit.jupiter.api.Assumptions.assumeTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.File;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.TimeUnit;

/**
 * Runs Autobahn|Testsuite cases with kosoku (PyPI) against a WebSocket echo endpoint and lists the cases
 * that did not pass; the calling test is skipped, saying how to install kosoku, when it is not there.
 * Needs Jackson on the test class path to read kosoku's report.
 *
 * <pre>{@code
 * assertThat(Autobahn.failedCases("ws://127.0.0.1:" + port + "/ws/echo", Autobahn.QUICK_CASES, reports)).isEmpty();
 * }</pre>
 */
public final class Autobahn {
    /**
     * A quick subset: framing, pings, reserved bits, opcodes, fragments, UTF-8, close codes, limits and
     * permessage-deflate, in well under a minute.
     */
    public static final List<String> QUICK_CASES = List.of(
            "1.*", "2.*", "3.*", "4.*", "5.*", "6.2.*", "6.3.*", "6.4.*", "6.5.*", "6.6.*", "7.*", "9.1.1", "9.2.1",
            "10.*", "12.1.1", "12.1.2", "12.2.3", "13.1.1", "13.2.1", "13.3.1", "13.5.1", "13.7.1");

    private static final Set<String> PASSING = Set.of("OK", "NON-STRICT", "INFORMATIONAL");

    private Autobahn() {}

    /**
     * Runs the cases matching {@code patterns} against {@code url}, with reports in {@code reports}, and
     * returns each case whose behaviour or close behaviour was not OK, NON-STRICT or INFORMATIONAL. One session with
     * the endpoint comes first, so that the cases do not pay for its first.
     */
    public static List<String> failedCases(String url, List<String> patterns, Path reports) throws Exception {
        assumeTrue(installed(), "kosoku is not installed: pip install kosoku (CI: .ci/tools.sh)");
        WebSocketWarmUp.session(url);
        List<String> command = new ArrayList<>(List.of("kosoku", "-p", "4", "-o", reports.toString()));
        patterns.forEach(pattern -> command.addAll(List.of("-i", pattern)));
        command.add(url);
        Path log = reports.resolve("kosoku.log");
        Process kosoku = new ProcessBuilder(command)
                .redirectErrorStream(true)
                .redirectOutput(log.toFile())
                .start();
        if (!kosoku.waitFor(5, TimeUnit.MINUTES)) {
            kosoku.destroyForcibly();
            return List.of("kosoku did not finish within 5 minutes: " + Files.readString(log));
        }
        Path index = reports.resolve("index.json");
        if (!Files.exists(index)) {
            return List.of("no report: " + Files.readString(log));
        }
        return failed(index);
    }

    private static List<String> failed(Path index) throws IOException {
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

    private static boolean installed() {
        for (String dir : System.getenv().getOrDefault("PATH", "").split(File.pathSeparator)) {
            if (Files.isExecutable(Path.of(dir, "kosoku"))) {
                return true;
            }
        }
        return false;
    }
}
