package io.parry.client.internal;

import io.parry.http.HttpHeaders;
import io.parry.http.HttpRequest;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.Base64;

/**
 * Whether a {@code 101} answers the upgrade its request asked for: the request offered a protocol in
 * {@code Upgrade} and named {@code upgrade} in {@code Connection}, the response switches to one it
 * offered (RFC 9110, section 7.8), and a WebSocket handshake's {@code Sec-WebSocket-Accept} is the one
 * its key calls for (RFC 6455, section 4.1).
 */
final class UpgradeCheck {
    /** RFC 6455, section 1.3. */
    private static final String WEBSOCKET_GUID = "258EAFA5-E914-47DA-95CA-C5AB0DC85B11";

    private UpgradeCheck() {}

    /** What is wrong with the {@code 101}, or {@code null} when it answers the request. */
    static String problem(HttpRequest request, HttpHeaders response) {
        HttpHeaders asked = request.headers();
        if (!asked.contains("upgrade") || !asked.containsValue("connection", "upgrade")) {
            return "101 Switching Protocols to a request that asked for no upgrade";
        }
        String chosen = response.get("upgrade");
        if (chosen == null || !asked.containsValue("upgrade", chosen)) {
            return "101 Switching Protocols to " + chosen + ", which the request did not offer";
        }
        if (!chosen.equalsIgnoreCase("websocket")) {
            return null;
        }
        String key = asked.get("sec-websocket-key");
        String accept = response.get("sec-websocket-accept");
        if (key == null || accept == null || !accept.equals(accept(key))) {
            return "101 Switching Protocols with Sec-WebSocket-Accept " + accept + ", which does not answer the key";
        }
        return null;
    }

    /** The {@code Sec-WebSocket-Accept} value for a key (RFC 6455, section 4.2.2). */
    static String accept(String key) {
        try {
            MessageDigest sha1 = MessageDigest.getInstance("SHA-1");
            byte[] digest = sha1.digest((key + WEBSOCKET_GUID).getBytes(StandardCharsets.US_ASCII));
            return Base64.getEncoder().encodeToString(digest);
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException("every Java runtime has SHA-1", e);
        }
    }
}
