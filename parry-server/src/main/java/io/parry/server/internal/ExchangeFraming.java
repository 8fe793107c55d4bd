package io.parry.server.internal;

import io.netty.util.concurrent.EventExecutor;
import io.parry.server.TlsInfo;
import java.net.InetSocketAddress;

/**
 * What an {@link Exchange} needs from the framing that carries it: an HTTP/1.1 connection ({@link
 * Http1Connection}) today, an HTTP/2 stream later.
 *
 * <p>The framing owns the bytes: it decodes the request head and body, frames and orders the
 * responses, and decides when the connection closes. The exchange owns the request's life: its state,
 * limits, deadline, context and log. Every method is called on the framing's event loop.
 */
interface ExchangeFraming {
    /** The server's shared state: handler, limits, listeners, counters. */
    ServerRuntime runtime();

    /** The event loop the framing runs on; the exchange's own work runs there unless a handler moves it. */
    EventExecutor executor();

    /** The connection's id, as request ids and log lines show it. */
    String connectionId();

    InetSocketAddress remoteAddress();

    InetSocketAddress localAddress();

    /** What the connection's TLS handshake settled; {@code null} over cleartext. */
    TlsInfo tls();

    /** Stops reading the request body: its reader is behind. */
    void pauseRequestBody();

    /** Reads the request body again. */
    void resumeRequestBody();

    /** The request body was asked for the first time, so a client waiting for 100 Continue may send it. */
    void bodyDemanded(Exchange exchange);

    /** Whether the client can still be answered: its connection (or stream) is open. */
    boolean isOpen();

    /** The exchange's response is set: the framing writes it when its turn comes. */
    void responseReady(Exchange exchange);

    /**
     * Whether a 101 response to this exchange may take the connection over: its request asked for an
     * upgrade this framing can give. None can by default.
     */
    default boolean canTakeOver(Exchange exchange) {
        return false;
    }
}
