package io.parry.server.websocket;

import static java.util.Objects.requireNonNull;

import io.parry.http.HttpBody;
import io.parry.http.HttpHeaders;
import io.parry.http.HttpRequest;
import io.parry.http.HttpResponse;
import io.parry.http.HttpStatus;
import io.parry.server.RequestContext;
import java.util.List;
import java.util.function.Consumer;

/**
 * A valid WebSocket opening handshake (RFC 6455, section 4.2.1), for its {@link WebSocketHandler} to
 * accept or refuse. Accepting gives a 101 response; the session opens once that response has left.
 */
public final class WebSocketHandshake {
    private final RequestContext context;
    private final HttpRequest request;
    private final WebSocketEndpoint endpoint;
    private final List<String> subprotocols;

    WebSocketHandshake(RequestContext context, HttpRequest request, WebSocketEndpoint endpoint) {
        this.context = context;
        this.request = request;
        this.endpoint = endpoint;
        this.subprotocols = Handshakes.subprotocols(request.headers());
    }

    /** The handshake request. */
    public HttpRequest request() {
        return request;
    }

    /** The subprotocols the client offered ({@code Sec-WebSocket-Protocol}), in its order of preference. */
    public List<String> subprotocols() {
        return subprotocols;
    }

    /**
     * Accepts the upgrade without a subprotocol. {@code onOpen} gets the session on the connection's
     * event loop once the 101 response has left; it is not called if the connection closes first.
     */
    public HttpResponse accept(Consumer<WebSocketSession> onOpen) {
        return accept(null, HttpHeaders.empty(), onOpen);
    }

    /**
     * Accepts the upgrade with one of the offered subprotocols (or {@code null}) and extra response
     * headers (cookies, say).
     *
     * @throws IllegalArgumentException if the subprotocol was not offered
     */
    public HttpResponse accept(String subprotocol, HttpHeaders headers, Consumer<WebSocketSession> onOpen) {
        requireNonNull(headers, "headers");
        requireNonNull(onOpen, "onOpen");
        if (subprotocol != null && !subprotocols.contains(subprotocol)) {
            throw new IllegalArgumentException(
                    "subprotocol: " + subprotocol + " (expected: one of " + subprotocols + ")");
        }
        Handshakes.Accepted accepted = Handshakes.accept(request, endpoint.options());
        HttpResponse response = HttpResponse.of(HttpStatus.SWITCHING_PROTOCOLS, headers, HttpBody.empty())
                .withHeader("upgrade", "websocket")
                .withHeader("sec-websocket-accept", accepted.acceptKey());
        if (subprotocol != null) {
            response = response.withHeader("sec-websocket-protocol", subprotocol);
        }
        if (accepted.extensionHeader() != null) {
            response = response.withHeader("sec-websocket-extensions", accepted.extensionHeader());
        }
        SessionSetup setup = new SessionSetup(
                endpoint.options(),
                endpoint.counters(),
                accepted.extension(),
                accepted.storedBlocks(),
                subprotocol,
                context.requestId(),
                context.remoteAddress(),
                onOpen);
        return response.withBody(new WebSocketTakeover(setup));
    }
}
