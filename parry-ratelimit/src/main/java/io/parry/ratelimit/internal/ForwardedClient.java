package io.parry.ratelimit.internal;

import io.parry.http.HttpRequest;
import io.parry.server.RequestContext;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.UnknownHostException;
import java.util.List;
import java.util.function.Predicate;

/** The client's address as the nearest untrusted hop of {@code X-Forwarded-For} names it. */
public final class ForwardedClient {
    private ForwardedClient() {}

    /** The TCP peer's address, or {@code null} for a context without one. */
    public static InetAddress peer(RequestContext ctx) {
        InetSocketAddress remote = ctx.remoteAddress();
        return remote == null ? null : remote.getAddress();
    }

    /** The peer's address as text; {@code unknown} when there is none (a connection that is not TCP). */
    public static String text(InetAddress peer) {
        return peer == null ? "unknown" : peer.getHostAddress();
    }

    /** The client's address: the peer's when it is not trusted, else the nearest untrusted forwarded hop. */
    public static String of(InetAddress peer, HttpRequest request, Predicate<InetAddress> trustedProxy) {
        if (peer == null || !trustedProxy.test(peer)) {
            return text(peer);
        }
        List<String> fields = request.headers().getAll("x-forwarded-for");
        String leftmost = null;
        for (int f = fields.size() - 1; f >= 0; f--) {
            String field = fields.get(f);
            int end = field.length();
            while (end > 0) {
                int comma = field.lastIndexOf(',', end - 1);
                String hop = field.substring(comma + 1, end).trim();
                end = comma < 0 ? 0 : comma;
                if (hop.isEmpty()) {
                    continue;
                }
                InetAddress address = literal(hop);
                if (address == null || !trustedProxy.test(address)) {
                    return address == null ? hop : address.getHostAddress();
                }
                leftmost = hop;
            }
        }
        // Every hop is a proxy of ours: the first of them is as near the client as we can see.
        return leftmost == null ? text(peer) : leftmost;
    }

    /** The address a hop names, parsed only if it is a numeric literal so that no text reaches DNS. */
    static InetAddress literal(String hop) {
        String text = hop.length() > 2 && hop.charAt(0) == '[' && hop.charAt(hop.length() - 1) == ']'
                ? hop.substring(1, hop.length() - 1)
                : hop;
        boolean colon = false;
        boolean hex = false;
        for (int i = 0; i < text.length(); i++) {
            char c = text.charAt(i);
            if (c == ':') {
                colon = true;
            } else if ((c >= 'a' && c <= 'f') || (c >= 'A' && c <= 'F')) {
                hex = true;
            } else if ((c < '0' || c > '9') && c != '.') {
                return null;
            }
        }
        if (text.isEmpty() || (hex && !colon)) {
            return null;
        }
        try {
            return InetAddress.getByName(text);
        } catch (UnknownHostException e) {
            return null;
        }
    }
}
