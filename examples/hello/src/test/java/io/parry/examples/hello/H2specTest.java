package io.parry.examples.hello;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import io.parry.server.Server;
import java.io.File;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
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
        Path h2spec = h2spec();
        assumeTrue(
                h2spec != null,
                "h2spec is not installed: go install github.com/summerwind/h2spec/cmd/h2spec@latest"
                        + " (or set H2SPEC to its path)");
        List<String> command = new ArrayList<>(
                List.of(h2spec.toString(), "-h", "127.0.0.1", "-p", Integer.toString(server.port()), "-o", "5"));
        if (strict) {
            command.add("--strict");
        }
        Process process = new ProcessBuilder(command).redirectErrorStream(true).start();
        byte[] output = process.getInputStream().readAllBytes();
        assertThat(process.waitFor(5, TimeUnit.MINUTES)).isTrue();
        String report = new String(output, StandardCharsets.UTF_8);

        assertThat(report).contains(" 0 failed");
        assertThat(process.exitValue()).as(report).isZero();
    }

    /** $H2SPEC, else h2spec on the PATH, else in Go's bin directory; null when none is there. */
    private static Path h2spec() {
        String configured = System.getenv("H2SPEC");
        if (configured != null) {
            return Path.of(configured);
        }
        List<Path> candidates = new ArrayList<>();
        for (String directory : System.getenv().getOrDefault("PATH", "").split(File.pathSeparator)) {
            candidates.add(Path.of(directory, "h2spec"));
        }
        candidates.add(Path.of(System.getProperty("user.home"), "go", "bin", "h2spec"));
        for (Path candidate : candidates) {
            if (Files.isExecutable(candidate)) {
                return candidate;
            }
        }
        return null;
    }
}
