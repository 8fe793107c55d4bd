package io.parry.testing;

import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.io.File;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

/**
 * Runs h2spec, the HTTP/2 conformance suite, against a server on 127.0.0.1; the calling test is
 * skipped, saying how to install it, when h2spec is not there.
 *
 * <pre>{@code
 * H2spec.Report report = H2spec.run(server.port(), false, "/", true);
 * assertThat(report.text()).contains(" 0 failed");
 * }</pre>
 */
public final class H2spec {
    private H2spec() {}

    /** What h2spec printed and its exit status. */
    public record Report(String text, int exitStatus) {}

    /**
     * Runs every case against this port: over TLS (trusting any certificate) when {@code tls}, else
     * h2c with prior knowledge; requests go to {@code path}; {@code strict} adds the cases the RFC
     * words as SHOULD.
     */
    public static Report run(int port, boolean tls, String path, boolean strict)
            throws IOException, InterruptedException {
        Path h2spec = find();
        assumeTrue(
                h2spec != null,
                "h2spec is not installed: go install github.com/summerwind/h2spec/cmd/h2spec@latest"
                        + " (or set H2SPEC to its path)");
        List<String> command = new ArrayList<>(
                List.of(h2spec.toString(), "-h", "127.0.0.1", "-p", Integer.toString(port), "-P", path, "-o", "5"));
        if (tls) {
            command.addAll(List.of("-t", "-k"));
        }
        if (strict) {
            command.add("--strict");
        }
        Process process = new ProcessBuilder(command).redirectErrorStream(true).start();
        byte[] output = process.getInputStream().readAllBytes();
        if (!process.waitFor(5, TimeUnit.MINUTES)) {
            process.destroyForcibly();
        }
        return new Report(new String(output, StandardCharsets.UTF_8), process.exitValue());
    }

    /** $H2SPEC, else h2spec on the PATH, else in Go's bin directory; null when none is there. */
    private static Path find() {
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
