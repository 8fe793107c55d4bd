package io.parry.gateway;

import static org.assertj.core.api.Assertions.assertThat;

import io.parry.testing.H2spec;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * h2spec, the HTTP/2 conformance suite, against the gateway demo over TLS on its HTTPS port (h2 by
 * ALPN): every case passes, with and without {@code --strict}. Requests go through the proxy to the
 * demo's todo service for its OpenAPI document, a body large enough for the flow-control cases.
 */
class GatewayH2specTest {
    private static ChildGateway demo;
    private static int httpsPort;

    @BeforeAll
    static void start() throws Exception {
        demo = ChildGateway.start(Map.of("PORT", "0", "ADMIN_PORT", "0", "HTTPS_PORT", "0"));
        demo.awaitPorts();
        Matcher https = Pattern.compile("https://localhost:(\\d+) ").matcher(demo.awaitLine("Demo HTTPS on"));
        assertThat(https.find()).isTrue();
        demo.awaitLine("Demo: try");
        httpsPort = Integer.parseInt(https.group(1));
    }

    @AfterAll
    static void stop() throws Exception {
        demo.close();
    }

    @ParameterizedTest(name = "strict={0}")
    @ValueSource(booleans = {false, true})
    void passesEveryCaseOverTls(boolean strict) throws Exception {
        H2spec.Report report = H2spec.run(httpsPort, true, "/api/todos/openapi.json", strict);

        assertThat(report.text())
                .containsPattern(
                        strict
                                ? "146 tests, 146 passed, 0 skipped, 0 failed"
                                : "145 tests, 145 passed, 0 skipped, 0 failed");
        assertThat(report.exitStatus()).as(report.text()).isZero();
    }
}
