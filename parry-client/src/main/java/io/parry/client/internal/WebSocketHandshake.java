package io.parry.client.internal;

import io.netty.handler.codec.http.websocketx.WebSocket08FrameDecoder;
import io.netty.handler.codec.http.websocketx.WebSocket13FrameEncoder;
import io.netty.handler.codec.http.websocketx.WebSocketDecoderConfig;
import io.netty.handler.codec.http.websocketx.WebSocketFrameAggregator;
import io.parry.client.ConnectionClosedException;
import io.parry.client.Endpoint;
import io.parry.client.HttpClient;
import io.parry.client.InvalidResponseException;
import io.parry.client.WebSocket;
import io.parry.client.WebSocketRefusedException;
import io.parry.http.HttpData;
import io.parry.http.HttpMethod;
import io.parry.http.HttpRequest;
import io.parry.http.HttpResponse;
import io.parry.transport.spi.UpgradedChannel;
import java.security.SecureRandom;
import java.time.Duration;
import java.util.Base64;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;

/**
 * The client's side of the opening handshake (RFC 6455, section 4.1): sends the upgrade request, and
 * on a {@code 101} (which the connection checked, {@link UpgradeCheck}) puts the frame codec and a
 * {@link ClientWebSocket} on the connection.
 */
public final class WebSocketHandshake {
    private static final SecureRandom KEYS = new SecureRandom();
    private static final int REFUSAL_BODY = 64 * 1024;

    private WebSocketHandshake() {}

    public static CompletionStage<WebSocket> open(
            HttpClient client, Endpoint endpoint, HttpRequest request, int maxMessageSize, Duration closeTimeout) {
        if (!request.method().equals(HttpMethod.GET)) {
            throw new IllegalArgumentException("method: " + request.method() + " (expected: GET)");
        }
        HttpRequest handshake = request.mapHeaders(headers -> headers.set("upgrade", "websocket")
                .set("connection", "upgrade")
                .set("sec-websocket-key", newKey())
                .set("sec-websocket-version", "13"));
        return client.send(endpoint, handshake)
                .thenCompose(response -> opened(response, maxMessageSize, closeTimeout.toNanos()));
    }

    private static CompletionStage<WebSocket> opened(
            HttpResponse response, int maxMessageSize, long closeTimeoutNanos) {
        if (response.status().code() != 101) {
            return refused(response);
        }
        if (!(response.body() instanceof UpgradedChannel)) {
            return CompletableFuture.failedFuture(
                    new InvalidResponseException("a client filter replaced the 101's connection", null));
        }
        UpgradedChannel upgraded = (UpgradedChannel) response.body();
        CompletableFuture<WebSocket> opened = new CompletableFuture<>();
        upgraded.channel().eventLoop().execute(() -> {
            ClientWebSocket socket = new ClientWebSocket(response.headers(), closeTimeoutNanos);
            try {
                upgraded.takeOver(pipeline -> pipeline.addLast("ws-encoder", new WebSocket13FrameEncoder(true))
                        .addLast("ws-decoder", new WebSocket08FrameDecoder(decoderConfig(maxMessageSize)))
                        .addLast("ws-aggregator", new WebSocketFrameAggregator(maxMessageSize))
                        .addLast("ws-socket", socket));
            } catch (IllegalStateException closedMeanwhile) {
                // The client was closed between the 101 and now, and the connection with it.
                opened.completeExceptionally(new ConnectionClosedException(
                        "the client closed before the WebSocket opened", true, closedMeanwhile));
                return;
            }
            socket.readIfWanted();
            opened.complete(socket);
        });
        return opened;
    }

    /** Reads what the server said, within a bound, so the connection is released either way. */
    private static CompletionStage<WebSocket> refused(HttpResponse response) {
        return response.body().aggregate(REFUSAL_BODY).handle((body, failure) -> {
            throw new WebSocketRefusedException(
                    response.status(), response.headers(), body == null ? HttpData.empty() : body);
        });
    }

    /** A server's frames are never masked (RFC 6455, section 5.1); no extension was negotiated. */
    private static WebSocketDecoderConfig decoderConfig(int maxMessageSize) {
        return WebSocketDecoderConfig.newBuilder()
                .expectMaskedFrames(false)
                .allowExtensions(false)
                .maxFramePayloadLength(maxMessageSize)
                .build();
    }

    private static String newKey() {
        byte[] nonce = new byte[16];
        KEYS.nextBytes(nonce);
        return Base64.getEncoder().encodeToString(nonce);
    }
}
