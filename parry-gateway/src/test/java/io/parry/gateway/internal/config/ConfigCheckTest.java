package io.parry.gateway.internal.config;

import static org.assertj.core.api.Assertions.assertThat;

import io.parry.gateway.internal.demo.DemoCertificate;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class ConfigCheckTest {
    private final ByteArrayOutputStream out = new ByteArrayOutputStream();
    private final ByteArrayOutputStream err = new ByteArrayOutputStream();

    @TempDir
    Path dir;

    @Test
    void saysAValidFileIsOkAndExitsZero() throws Exception {
        Path file = write("ok.yaml", "routes:\n  - match: { path: /hello }\n    respond: { body: hi }\n");

        assertThat(check(file)).isEqualTo(ConfigCheck.OK);
        assertThat(out()).isEqualTo("configuration file " + file + " is ok\n");
        assertThat(err()).isEmpty();
    }

    @Test
    void printsEveryErrorAndExitsOne() throws Exception {
        Path file = write("bad.yaml", "listener: { port: abc }\nroutes:\n  - match: { path: /x }\n");

        assertThat(check(file)).isEqualTo(ConfigCheck.INVALID);
        assertThat(out()).isEmpty();
        assertThat(err())
                .isEqualTo(file + ":1:19: 'port' must be an integer from 0 to 65535, got 'abc'\n"
                        + file + ":3:5: route 'route-1' has no action (expected exactly one of proxy, respond,"
                        + " redirect)\n"
                        + "configuration file " + file + " is invalid: 2 errors\n");
    }

    @Test
    void exitsTwoForAFileThatCannotBeRead() {
        Path file = dir.resolve("missing.yaml");

        assertThat(check(file)).isEqualTo(ConfigCheck.UNREADABLE);
        assertThat(out()).isEmpty();
        assertThat(err()).isEqualTo("cannot read configuration file " + file + ": no such file\n");
    }

    @Test
    void reportsAListenerCertificateWhoseKeyIsAnotherCertificatesAtItsLine() throws Exception {
        Path chain = Files.writeString(
                dir.resolve("chain.pem"),
                DemoCertificate.generate().tls().chainPem().orElseThrow());
        Path key = Files.writeString(
                dir.resolve("key.pem"),
                DemoCertificate.generate().tls().keyPem().orElseThrow());
        Path file = write("tls.yaml", listenerWithCertificate(chain, key));

        assertThat(check(file)).isEqualTo(ConfigCheck.INVALID);
        assertThat(err())
                .startsWith(file + ":5:")
                .contains("certificate " + chain + " with key " + key + " does not load")
                .contains("does not match the certificate");
    }

    @Test
    void reportsAListenerCertificateFileThatCannotBeReadAtItsLine() throws Exception {
        Path key = Files.writeString(
                dir.resolve("key.pem"),
                DemoCertificate.generate().tls().keyPem().orElseThrow());
        Path file = write("tls.yaml", listenerWithCertificate(dir.resolve("missing.pem"), key));

        assertThat(check(file)).isEqualTo(ConfigCheck.INVALID);
        assertThat(err())
                .startsWith(file + ":5:")
                .contains("does not load: no such file " + dir.resolve("missing.pem"));
    }

    @Test
    void acceptsAListenerCertificateWithItsOwnKey() throws Exception {
        DemoCertificate certificate = DemoCertificate.generate();
        Path chain = Files.writeString(
                dir.resolve("chain.pem"), certificate.tls().chainPem().orElseThrow());
        Path key = Files.writeString(
                dir.resolve("key.pem"), certificate.tls().keyPem().orElseThrow());

        assertThat(check(write("tls.yaml", listenerWithCertificate(chain, key))))
                .isEqualTo(ConfigCheck.OK);
        assertThat(err()).isEmpty();
    }

    private static String listenerWithCertificate(Path chain, Path key) {
        return """
                listener:
                  port: 0
                  tls:
                    certificates:
                      - { chain: %s, key: %s }
                """
                .formatted(chain, key);
    }

    @Test
    void takesPlaceholdersFromTheGivenEnvironment() throws Exception {
        Path file = write("env.yaml", "version: ${RELEASE}\n");

        assertThat(ConfigCheck.run(file, Map.of("RELEASE", "1"), print(out), print(err)))
                .isEqualTo(ConfigCheck.OK);
    }

    private int check(Path file) {
        return ConfigCheck.run(file, Map.of(), print(out), print(err));
    }

    private Path write(String name, String content) throws Exception {
        return Files.writeString(dir.resolve(name), content);
    }

    private static PrintStream print(ByteArrayOutputStream bytes) {
        return new PrintStream(bytes, true, StandardCharsets.UTF_8);
    }

    private String out() {
        return out.toString(StandardCharsets.UTF_8).replace(System.lineSeparator(), "\n");
    }

    private String err() {
        return err.toString(StandardCharsets.UTF_8).replace(System.lineSeparator(), "\n");
    }
}
