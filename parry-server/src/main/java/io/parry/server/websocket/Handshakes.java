package io.parry.server.websocket;

import io.netty.handler.codec.compression.ZlibCodecFactory;
import io.netty.handler.codec.http.websocketx.extensions.WebSocketExtensionData;
import io.netty.handler.codec.http.websocketx.extensions.WebSocketExtensionFilterProvider;
import io.netty.handler.codec.http.websocketx.extensions.WebSocketExtensionUtil;
import io.netty.handler.codec.http.websocketx.extensions.WebSocketServerExtension;
import io.netty.handler.codec.http.websocketx.extensions.compression.PerMessageDeflateServerExtensionHandshaker;
import io.parry.http.HttpHeaders;
import io.parry.http.HttpMethod;
import io.parry.http.HttpRequest;
import io.parry.http.HttpResponse;
import io.parry.http.HttpStatus;
import io.parry.http.Problem;
import io.parry.server.RequestContext;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.ArrayList;
import java.util.Base64;
import java.util.List;
import java.util.Map;

/** The checks and answers of a WebSocket opening handshake (RFC 6455, section 4.2). */
final class Handshakes {
    /** RFC 6455, section 1.3: the GUID appended to the key before hashing. */
    private static final String KEY_GUID = "258EAFA5-E914-47DA-95CA-C5AB0DC85B11";

    private static final HttpStatus UPGRADE_REQUIRED = HttpStatus.of(426);

    private Handshakes() {}

    /**
     * What accepting a handshake sends and runs with: {@code storedBlocks} when the client asked for a
     * server window the JDK's zlib cannot compress with (see {@link StoredDeflateEncoder}).
     */
    record Accepted(
            String acceptKey, WebSocketServerExtension extension, String extensionHeader, boolean storedBlocks) {}

    /** A negotiated extension, and whether its messages must go as stored blocks. */
    private record Negotiated(WebSocketServerExtension extension, boolean storedBlocks) {}

    /** The refusal of a request that is not a valid handshake this endpoint takes, or {@code null}. */
    static HttpResponse refusal(RequestContext ctx, HttpRequest request, WebSocketOptions options) {
        HttpHeaders headers = request.headers();
        if (!request.method().equals(HttpMethod.GET)
                || !ctx.protocol().equals("HTTP/1.1")
                || !headers.containsValue("upgrade", "websocket")
                || !headers.containsValue("connection", "upgrade")) {
            // RFC 9110, section 15.5.22: say which protocol this resource needs.
            return problem(UPGRADE_REQUIRED, "This resource takes WebSocket connections (GET, HTTP/1.1).")
                    .withHeader("upgrade", "websocket")
                    .withHeader("connection", "upgrade");
        }
        if (!"13".equals(headers.get("sec-websocket-version"))) {
            // RFC 6455, section 4.4: name the versions the server speaks.
            return problem(UPGRADE_REQUIRED, "Only WebSocket version 13 is supported.")
                    .withHeader("sec-websocket-version", "13");
        }
        if (!isValidKey(headers.get("sec-websocket-key"))) {
            return problem(HttpStatus.BAD_REQUEST, "Sec-WebSocket-Key is not 16 bytes in base64.");
        }
        String origin = headers.get("origin");
        if (origin != null
                && !options.allowedOrigins().isEmpty()
                && !options.allowedOrigins().contains(origin)) {
            return problem(HttpStatus.FORBIDDEN, "This origin may not open WebSocket connections here.");
        }
        return null;
    }

    static Accepted accept(HttpRequest request, WebSocketOptions options) {
        String key = request.headers().get("sec-websocket-key");
        PerMessageDeflate deflate = options.deflate();
        Negotiated negotiated =
                deflate.enabled() ? negotiate(request.headers(), deflate, options.maxMessageSize()) : null;
        if (negotiated == null) {
            return new Accepted(acceptKey(key), null, null, false);
        }
        WebSocketServerExtension extension = negotiated.extension();
        return new Accepted(acceptKey(key), extension, describe(extension.newReponseData()), negotiated.storedBlocks());
    }

    /** The offered subprotocols, in order; empty when none. */
    static List<String> subprotocols(HttpHeaders headers) {
        List<String> offered = new ArrayList<>(2);
        for (String value : headers.getAll("sec-websocket-protocol")) {
            for (String token : value.split(",")) {
                String name = token.trim();
                if (!name.isEmpty()) {
                    offered.add(name);
                }
            }
        }
        return List.copyOf(offered);
    }

    /** RFC 6455, section 4.2.2: base64 of the SHA-1 of the key and the GUID. */
    static String acceptKey(String key) {
        try {
            byte[] digest =
                    MessageDigest.getInstance("SHA-1").digest((key + KEY_GUID).getBytes(StandardCharsets.US_ASCII));
            return Base64.getEncoder().encodeToString(digest);
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException("SHA-1 is missing from this JDK", e);
        }
    }

    private static boolean isValidKey(String key) {
        if (key == null || key.length() != 24) {
            return false;
        }
        try {
            return Base64.getDecoder().decode(key).length == 16;
        } catch (IllegalArgumentException e) {
            return false;
        }
    }

    /**
     * The first permessage-deflate offer the server can honour (RFC 7692, section 5), or {@code null}. The
     * JDK's zlib cannot compress with a window under 15 bits; without JZlib on the class path, an offer
     * that sets {@code server_max_window_bits} is still accepted, and the server's messages then go as
     * stored blocks, which fit any window. No frame inflates past {@code
     * maxInflated} bytes: the inflater fails first, before a compression bomb fills memory.
     */
    private static Negotiated negotiate(HttpHeaders headers, PerMessageDeflate deflate, int maxInflated) {
        String offers = headers.get("sec-websocket-extensions");
        if (offers == null) {
            return null;
        }
        boolean anyWindow = ZlibCodecFactory.isSupportingWindowSizeAndMemLevel();
        PerMessageDeflateServerExtensionHandshaker compressing = handshaker(
                deflate,
                deflate.acceptServerWindowBits() && anyWindow,
                WebSocketExtensionFilterProvider.DEFAULT,
                maxInflated);
        PerMessageDeflateServerExtensionHandshaker stored = deflate.acceptServerWindowBits() && !anyWindow
                ? handshaker(deflate, true, WebSocketExtensionFilterProvider.DEFAULT, maxInflated)
                : null;
        try {
            for (WebSocketExtensionData offer : WebSocketExtensionUtil.extractExtensions(offers)) {
                WebSocketServerExtension accepted = compressing.handshakeExtension(offer);
                if (accepted != null) {
                    return new Negotiated(accepted, false);
                }
                accepted = stored == null ? null : stored.handshakeExtension(offer);
                if (accepted != null) {
                    return new Negotiated(accepted, true);
                }
            }
        } catch (RuntimeException e) {
            return null; // A malformed offer: the session runs uncompressed.
        }
        return null;
    }

    private static PerMessageDeflateServerExtensionHandshaker handshaker(
            PerMessageDeflate deflate,
            boolean serverWindow,
            WebSocketExtensionFilterProvider filters,
            int maxInflated) {
        return new PerMessageDeflateServerExtensionHandshaker(
                deflate.compressionLevel(),
                serverWindow,
                deflate.clientWindowBits(),
                deflate.acceptServerNoContextTakeover(),
                deflate.requestClientNoContextTakeover(),
                filters,
                maxInflated);
    }

    private static String describe(WebSocketExtensionData data) {
        StringBuilder text = new StringBuilder(data.name());
        for (Map.Entry<String, String> parameter : data.parameters().entrySet()) {
            text.append("; ").append(parameter.getKey());
            if (parameter.getValue() != null) {
                text.append('=').append(parameter.getValue());
            }
        }
        return text.toString();
    }

    private static HttpResponse problem(HttpStatus status, String detail) {
        return Problem.of(status).detail(detail).toResponse();
    }
}
