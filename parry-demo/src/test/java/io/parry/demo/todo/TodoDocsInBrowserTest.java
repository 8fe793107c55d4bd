package io.parry.demo.todo;

import static org.assertj.core.api.Assertions.assertThat;

import io.parry.server.Server;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The {@code /docs} page in a real headless browser (Chromium from Debian): it loads Swagger UI from the
 * service, which fetches the document and lists every todo operation.
 */
class TodoDocsInBrowserTest {
    private static final Path CHROMIUM = Path.of("/usr/bin/chromium");

    @TempDir
    Path profile;

    private Server server;

    @BeforeEach
    void start() {
        Assumptions.assumeTrue(
                Files.isExecutable(CHROMIUM), "Chromium is missing: apt-get install --no-install-recommends chromium");
        server = TodoService.start(0);
    }

    @AfterEach
    void stop() {
        if (server != null) {
            server.stop(Duration.ofSeconds(1));
        }
    }

    @Test
    void listsTheTodoOperationsWithTheirSummaries() throws Exception {
        String dom = renderedDom("http://127.0.0.1:" + server.port() + "/docs");

        assertThat(dom)
                .contains("Todo-Backend")
                .contains("/todos/{id}")
                .contains("Lists every todo, by order and then by age.")
                .contains("Finds a todo.")
                .contains("Changes the fields of a todo that the patch holds.");
    }

    /** The page's DOM once its scripts ran, as Chromium prints it. */
    private String renderedDom(String url) throws Exception {
        Process chromium = new ProcessBuilder(List.of(
                        CHROMIUM.toString(),
                        "--headless",
                        "--no-sandbox",
                        "--disable-gpu",
                        "--disable-dev-shm-usage",
                        "--user-data-dir=" + profile,
                        "--virtual-time-budget=20000",
                        "--dump-dom",
                        url))
                .redirectError(ProcessBuilder.Redirect.DISCARD)
                .start();
        String dom = new String(chromium.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        if (!chromium.waitFor(90, TimeUnit.SECONDS)) {
            chromium.destroyForcibly();
        }
        return dom;
    }
}
