package io.parry.testing;

import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.WebSocket;
import java.nio.ByteBuffer;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.TimeUnit;

/**
 * One whole session with a WebSocket echo endpoint: opened, a message echoed, closed by the client and the close
 * answered. Run before timed cases, so that they time the endpoint rather than its first session (classes loaded,
 * code compiled, a proxy's upstream connection opened), which on a loaded machine took the first cases past
 * kosoku's close-handshake timeout.
 */
final class WebSocketWarmUp implements WebSocket.Listener {
    private static final long TIMEOUT_SECONDS = 30;

    private final CompletableFuture<Void> echoed = new CompletableFuture<>();
    private final CompletableFuture<Integer> closed = new CompletableFuture<>();

    private WebSocketWarmUp() {}

    /** Runs the session, waiting for each step's answer (30 s at most each); throws when one does not come. */
    static void session(String url) throws Exception {
        WebSocketWarmUp listener = new WebSocketWarmUp();
        HttpClient http = HttpClient.newHttpClient();
        WebSocket socket =
                http.newWebSocketBuilder().buildAsync(URI.create(url), listener).get(TIMEOUT_SECONDS, TimeUnit.SECONDS);
        socket.sendText("warm-up", true).get(TIMEOUT_SECONDS, TimeUnit.SECONDS);
        listener.echoed.get(TIMEOUT_SECONDS, TimeUnit.SECONDS);
        socket.sendClose(WebSocket.NORMAL_CLOSURE, "").get(TIMEOUT_SECONDS, TimeUnit.SECONDS);
        listener.closed.get(TIMEOUT_SECONDS, TimeUnit.SECONDS);
    }

    @Override
    public CompletionStage<?> onText(WebSocket socket, CharSequence data, boolean last) {
        if (last) {
            echoed.complete(null);
        }
        socket.request(1);
        return null;
    }

    @Override
    public CompletionStage<?> onBinary(WebSocket socket, ByteBuffer data, boolean last) {
        socket.request(1);
        return null;
    }

    @Override
    public CompletionStage<?> onClose(WebSocket socket, int statusCode, String reason) {
        closed.complete(statusCode);
        return null;
    }

    @Override
    public void onError(WebSocket socket, Throwable error) {
        echoed.completeExceptionally(error);
        closed.completeExceptionally(error);
    }
}
