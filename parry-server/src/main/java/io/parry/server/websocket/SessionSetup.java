package io.parry.server.websocket;

import io.netty.handler.codec.http.websocketx.extensions.WebSocketServerExtension;
import java.net.InetSocketAddress;
import java.util.function.Consumer;

/** What an accepted handshake hands to the session it opens; {@code extension} is {@code null} without one. */
record SessionSetup(
        WebSocketOptions options,
        WebSocketCounters counters,
        WebSocketServerExtension extension,
        boolean storedBlocks,
        String subprotocol,
        String id,
        InetSocketAddress remoteAddress,
        Consumer<WebSocketSession> onOpen) {}
