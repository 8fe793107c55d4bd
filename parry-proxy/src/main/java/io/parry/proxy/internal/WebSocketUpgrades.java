package io.parry.proxy.internal;

import io.parry.http.HttpHeaders;
import io.parry.http.HttpMethod;
import io.parry.http.HttpRequest;
import io.parry.http.HttpResponse;
import io.parry.http.HttpStatus;
import io.parry.transport.spi.ConnectionTakeover;

/**
 * The header fields of a proxied WebSocket handshake. {@code Upgrade} and {@code Connection} are
 * hop-by-hop (RFC 9110, section 7.6.1), so the proxy drops them like any other and sets them again for
 * the one upgrade it forwards: {@code websocket}, never {@code h2c} or another protocol it would not
 * understand after the {@code 101}. The {@code Sec-WebSocket-*} fields are end to end and pass as
 * received, so the key, the subprotocols and the extensions (permessage-deflate) are negotiated
 * between the client and the upstream.
 */
public final class WebSocketUpgrades {
    private WebSocketUpgrades() {}

    /**
     * Whether the request opens a WebSocket: a {@code GET} asking for an upgrade to {@code websocket}
     * (RFC 6455, section 4.1); a request offering several protocols offers {@code websocket} among them.
     */
    public static boolean isHandshake(HttpRequest request) {
        HttpHeaders headers = request.headers();
        return request.method().equals(HttpMethod.GET)
                && headers.containsValue("upgrade", "websocket")
                && headers.containsValue("connection", "upgrade");
    }

    /** The prepared upstream request with the upgrade to {@code websocket} asked for again. */
    public static HttpRequest upstreamHandshake(HttpRequest prepared) {
        return prepared.mapHeaders(
                headers -> headers.set("upgrade", "websocket").set("connection", "upgrade"));
    }

    /**
     * The {@code 101} for the client: the prepared response's fields (hop-by-hop ones gone, the rules
     * applied) with {@code Upgrade: websocket}; the server adds {@code Connection: upgrade}.
     */
    public static HttpResponse downstreamSwitch(HttpResponse prepared, ConnectionTakeover takeover) {
        HttpHeaders headers =
                prepared.headers().toBuilder().set("upgrade", "websocket").build();
        return HttpResponse.of(HttpStatus.SWITCHING_PROTOCOLS, headers, takeover);
    }
}
