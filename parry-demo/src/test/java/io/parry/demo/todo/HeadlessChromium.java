package io.parry.demo.todo;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.io.IOException;
import java.io.InputStreamReader;
import java.io.Reader;
import java.io.UncheckedIOException;
import java.io.Writer;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse.BodyHandlers;
import java.net.http.WebSocket;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * A headless Chromium driven over the DevTools protocol with the JDK's WebSocket client: one page that
 * navigates and evaluates scripts. Every wait is bounded by {@code timeout}; {@link #close()} ends the
 * process.
 */
final class HeadlessChromium implements AutoCloseable {
    private static final String LISTENING = "DevTools listening on ";
    private static final String BROWSER = "/devtools/browser/";
    private static final ObjectMapper JSON = new ObjectMapper();

    private final Process process;
    private final Duration timeout;
    private final WebSocket page;
    private final AtomicInteger ids = new AtomicInteger();
    private final Map<Integer, CompletableFuture<JsonNode>> replies = new ConcurrentHashMap<>();
    private final Map<String, CompletableFuture<JsonNode>> events = new ConcurrentHashMap<>();

    private HeadlessChromium(Process process, Duration timeout, URI pageSocket) throws Exception {
        this.process = process;
        this.timeout = timeout;
        this.page = HttpClient.newHttpClient()
                .newWebSocketBuilder()
                .buildAsync(pageSocket, new Messages())
                .get(timeout.toMillis(), TimeUnit.MILLISECONDS);
    }

    /** Starts Chromium with a blank page and a fresh profile in this directory. */
    static HeadlessChromium start(Path chromium, Path profile, Duration timeout) throws Exception {
        ProcessBuilder launch = new ProcessBuilder(List.of(
                        chromium.toString(),
                        "--headless",
                        "--no-sandbox",
                        "--disable-gpu",
                        "--disable-dev-shm-usage",
                        "--no-first-run",
                        "--remote-debugging-address=127.0.0.1",
                        "--remote-debugging-port=0",
                        "--remote-allow-origins=*",
                        "--user-data-dir=" + profile,
                        "about:blank"))
                .redirectOutput(ProcessBuilder.Redirect.DISCARD);
        // Chromium's own temporary files (its singleton socket) go with the profile, not into /tmp.
        launch.environment().put("TMPDIR", profile.toString());
        Process process = launch.start();
        try {
            URI browser = CompletableFuture.supplyAsync(() -> browserSocket(process))
                    .get(timeout.toMillis(), TimeUnit.MILLISECONDS);
            return new HeadlessChromium(process, timeout, pageSocket(browser, timeout));
        } catch (Exception e) {
            process.destroyForcibly();
            throw e;
        }
    }

    /** Loads the URL and returns once the page's load event fired. */
    void navigate(String url) throws Exception {
        CompletableFuture<JsonNode> loaded = new CompletableFuture<>();
        events.put("Page.loadEventFired", loaded);
        call("Page.enable", JSON.createObjectNode());
        call("Page.navigate", JSON.createObjectNode().put("url", url));
        loaded.get(timeout.toMillis(), TimeUnit.MILLISECONDS);
    }

    /**
     * The value of a script's expression, awaited if it is a promise, as text.
     *
     * @throws IllegalStateException if the script threw
     */
    String evaluate(String expression) throws Exception {
        JsonNode result = call(
                "Runtime.evaluate",
                JSON.createObjectNode()
                        .put("expression", expression)
                        .put("awaitPromise", true)
                        .put("returnByValue", true));
        if (result.has("exceptionDetails")) {
            throw new IllegalStateException("script failed: " + result.get("exceptionDetails"));
        }
        return result.path("result").path("value").asText();
    }

    @Override
    public void close() throws InterruptedException {
        page.abort();
        process.destroy();
        if (!process.waitFor(10, TimeUnit.SECONDS)) {
            process.destroyForcibly();
        }
    }

    private JsonNode call(String method, ObjectNode params) throws Exception {
        int id = ids.incrementAndGet();
        CompletableFuture<JsonNode> reply = new CompletableFuture<>();
        replies.put(id, reply);
        ObjectNode message = JSON.createObjectNode().put("id", id).put("method", method);
        message.set("params", params);
        page.sendText(JSON.writeValueAsString(message), true).get(timeout.toMillis(), TimeUnit.MILLISECONDS);
        JsonNode answer = reply.get(timeout.toMillis(), TimeUnit.MILLISECONDS);
        if (answer.has("error")) {
            throw new IllegalStateException(method + " failed: " + answer.get("error"));
        }
        return answer.path("result");
    }

    /**
     * The browser's DevTools socket, from what Chromium prints on its standard error when ready: {@code
     * DevTools listening on ws://127.0.0.1:<port>/devtools/browser/<uuid>}, not always followed by a line
     * end, so it is read up to the id's 36 characters.
     */
    private static URI browserSocket(Process process) {
        // Not closed here: a thread reads on until Chromium ends, which closes the pipe.
        Reader errors = new InputStreamReader(process.getErrorStream(), StandardCharsets.UTF_8);
        try {
            StringBuilder seen = new StringBuilder();
            int marker = -1;
            for (int c = errors.read(); c >= 0; c = errors.read()) {
                seen.append((char) c);
                if (marker < 0) {
                    marker = seen.indexOf(LISTENING);
                }
                int id = marker < 0 ? -1 : seen.indexOf(BROWSER, marker);
                if (id >= 0 && seen.length() == id + BROWSER.length() + 36) {
                    URI socket = URI.create(seen.substring(marker + LISTENING.length()));
                    Thread drain = new Thread(() -> drain(errors), "chromium-stderr");
                    drain.setDaemon(true);
                    drain.start();
                    return socket;
                }
            }
            throw new IllegalStateException("Chromium ended without opening its DevTools port: " + seen);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** Reads what Chromium writes until it ends, so that it never blocks on a full pipe. */
    private static void drain(Reader errors) {
        try {
            errors.transferTo(Writer.nullWriter());
        } catch (IOException e) {
            // Chromium ended.
        }
    }

    /** The blank page's DevTools socket, from the browser's list of targets. */
    private static URI pageSocket(URI browser, Duration timeout) throws Exception {
        URI list = URI.create("http://" + browser.getAuthority() + "/json/list");
        String targets = HttpClient.newHttpClient()
                .send(HttpRequest.newBuilder(list).timeout(timeout).build(), BodyHandlers.ofString())
                .body();
        for (JsonNode target : JSON.readTree(targets)) {
            if (target.path("type").asText().equals("page")) {
                return URI.create(target.path("webSocketDebuggerUrl").asText());
            }
        }
        throw new IllegalStateException("Chromium has no page: " + targets);
    }

    /** Routes each whole message to the call awaiting its id, or to the event awaited by its name. */
    private final class Messages implements WebSocket.Listener {
        private final StringBuilder partial = new StringBuilder();

        @Override
        public CompletionStage<?> onText(WebSocket socket, CharSequence data, boolean last) {
            partial.append(data);
            if (last) {
                String text = partial.toString();
                partial.setLength(0);
                dispatch(text);
            }
            socket.request(1);
            return null;
        }

        private void dispatch(String text) {
            JsonNode message;
            try {
                message = JSON.readTree(text);
            } catch (java.io.IOException e) {
                return;
            }
            if (message.has("id")) {
                CompletableFuture<JsonNode> reply =
                        replies.remove(message.get("id").asInt());
                if (reply != null) {
                    reply.complete(message);
                }
            } else {
                CompletableFuture<JsonNode> event =
                        events.remove(message.path("method").asText());
                if (event != null) {
                    event.complete(message);
                }
            }
        }
    }
}
