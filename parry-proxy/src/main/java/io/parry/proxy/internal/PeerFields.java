package io.parry.proxy.internal;

import io.netty.util.concurrent.FastThreadLocal;
import java.net.InetAddress;
import java.util.Objects;

/**
 * The forwarding values made from the peer's address, kept per thread from one request to the next: they
 * are the same for every request of a connection, and an event loop's connections often share a peer
 * (another proxy, a load balancer), so the address text and the {@code Forwarded} element are made
 * again only when what they are made from changes, not for every proxied request.
 *
 * <p>Each thread has its own instance and only that thread touches it, so it needs no synchronisation;
 * a value is handed out only until the next {@link #of} on the same thread.
 */
final class PeerFields {
    private static final FastThreadLocal<PeerFields> LAST = new FastThreadLocal<>() {
        @Override
        protected PeerFields initialValue() {
            return new PeerFields();
        }
    };

    private boolean filled;
    private InetAddress peer;
    private String address;
    private String forwarded;
    private String forwardedHost;
    private boolean forwardedSecure;

    private PeerFields() {}

    /** This thread's values for {@code peer} ({@code null} when unknown), made again if the last were for another. */
    static PeerFields of(InetAddress peer) {
        PeerFields last = LAST.get();
        if (!last.filled || !Objects.equals(last.peer, peer)) {
            last.filled = true;
            last.peer = peer;
            last.address = ForwardingHeaders.addressText(peer);
            last.forwarded = null;
        }
        return last;
    }

    /** The peer's address as {@code X-Forwarded-For} and {@code Forwarded} write it. */
    String address() {
        return address;
    }

    /** This hop's {@code Forwarded} element (see {@link ForwardingHeaders#forwardedElement}). */
    String forwardedElement(String host, boolean secure) {
        if (forwarded == null || secure != forwardedSecure || !Objects.equals(host, forwardedHost)) {
            forwarded = ForwardingHeaders.forwardedElement(peer, address, host, secure);
            forwardedHost = host;
            forwardedSecure = secure;
        }
        return forwarded;
    }
}
