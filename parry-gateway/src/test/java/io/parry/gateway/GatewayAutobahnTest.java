package io.parry.gateway;

import static org.assertj.core.api.Assertions.assertThat;

import io.parry.testing.Autobahn;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A quick subset of the Autobahn|Testsuite cases ({@link Autobahn#QUICK_CASES}, permessage-deflate
 * included), run by kosoku through the gateway demo's {@code /ws/echo}, which the gateway relays frame by
 * frame to its demo service.
 */
class GatewayAutobahnTest {
    @Test
    void demoEchoPassesTheQuickAutobahnCasesThroughTheGateway(@TempDir Path reports) throws Exception {
        List<String> failed;
        try (ChildGateway demo = ChildGateway.start(Map.of("PORT", "0", "ADMIN_PORT", "0", "HTTPS_PORT", "0"))) {
            int port = demo.awaitPorts()[0];
            demo.awaitLine("Demo: try");
            failed = Autobahn.failedCases("ws://127.0.0.1:" + port + "/ws/echo", Autobahn.QUICK_CASES, reports);
        }

        assertThat(failed).isEmpty();
    }
}
