package io.parry.demo.todo;

import static org.assertj.core.api.Assertions.assertThat;

import io.parry.server.Server;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
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
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * The {@code /docs} page in a real headless browser (Chromium from Debian): it loads Swagger UI from the
 * service, which fetches the document and lists every todo operation, and its "try it out" calls the
 * service.
 */
class TodoDocsInBrowserTest {
    private static final Path CHROMIUM = Path.of("/usr/bin/chromium");

    /**
     * Opens the list operation, presses "Try it out" and "Execute" as a user would, and gives the live
     * response's status and text. Swagger UI renders as it goes, so each step waits (up to 30 s) for
     * the element it needs.
     */
    private static final String TRY_OUT_LIST =
            """
            (async () => {
              const until = async (find, what) => {
                for (let i = 0; i < 300; i++) {
                  const found = find();
                  if (found) return found;
                  await new Promise(resolve => setTimeout(resolve, 100));
                }
                throw new Error('no ' + what);
              };
              const block = await until(() => document.querySelector('#operations-TodoController-list'), 'operation');
              if (!block.classList.contains('is-open')) {
                (await until(() => block.querySelector('button.opblock-summary-control'), 'operation button')).click();
              }
              (await until(() => block.querySelector('.try-out__btn'), 'try it out button')).click();
              (await until(() => block.querySelector('.execute'), 'execute button')).click();
              const status = await until(() => block.querySelector('.live-responses-table tr.response .response-col_status'), 'response');
              const live = block.querySelector('.live-responses-table');
              return status.textContent.trim() + ' ' + live.textContent;
            })()
            """;

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

    @Test
    @Timeout(value = 3, unit = TimeUnit.MINUTES)
    void triesAnOperationOutAndTheCallReachesTheService() throws Exception {
        HttpResponse<String> created = HttpClient.newHttpClient()
                .send(
                        HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + server.port() + "/"))
                                .header("content-type", "application/json")
                                .POST(HttpRequest.BodyPublishers.ofString("{\"title\":\"tried out in a browser\"}"))
                                .build(),
                        HttpResponse.BodyHandlers.ofString());
        assertThat(created.statusCode()).isEqualTo(201);

        String answer;
        try (HeadlessChromium chromium = HeadlessChromium.start(CHROMIUM, profile, Duration.ofSeconds(60))) {
            chromium.navigate("http://127.0.0.1:" + server.port() + "/docs");
            answer = chromium.evaluate(TRY_OUT_LIST);
        }

        assertThat(answer).startsWith("200 ").contains("tried out in a browser");
    }

    /** The page's DOM once its scripts ran, as Chromium prints it. */
    private String renderedDom(String url) throws Exception {
        ProcessBuilder launch = new ProcessBuilder(List.of(
                        CHROMIUM.toString(),
                        "--headless",
                        "--no-sandbox",
                        "--disable-gpu",
                        "--disable-dev-shm-usage",
                        "--user-data-dir=" + profile,
                        "--virtual-time-budget=20000",
                        "--dump-dom",
                        url))
                .redirectError(ProcessBuilder.Redirect.DISCARD);
        launch.environment().put("TMPDIR", profile.toString());
        Process chromium = launch.start();
        String dom = new String(chromium.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        if (!chromium.waitFor(90, TimeUnit.SECONDS)) {
            chromium.destroyForcibly();
        }
        return dom;
    }
}
