package io.parry.examples.hello;

import static org.assertj.core.api.Assertions.assertThat;

import io.parry.server.Server;
import io.parry.testing.H2spec;
import java.time.Duration;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * h2spec, the HTTP/2 conformance suite, against the hello service over h2c with prior knowledge on
 * its normal port: every case passes, with and without {@code --strict}.
 */
class H2specTest {
    private static Server server;

    @BeforeAll
    static void start() {
        server = HelloApp.start(0);
    }

    @AfterAll
    static void stop() {
        server.stop(Duration.ofSeconds(1));
    }

    @ParameterizedTest(name = "strict={0}")
    @ValueSource(booleans = {false, true})
    void passesEveryCase(boolean strict) throws Exception {
        H2spec.Report report = H2spec.run(server.port(), false, "/", strict);

        assertThat(report.text())
                .containsPattern(
                        strict
                                ? "146 tests, 146 passed, 0 skipped, 0 failed"
                                : "145 tests, 145 passed, 0 skipped, 0 failed");
        assertThat(report.exitStatus()).as(report.text()).isZero();
    }
}
