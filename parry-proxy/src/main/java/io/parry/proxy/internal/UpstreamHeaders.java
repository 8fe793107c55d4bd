package io.parry.proxy.internal;

import io.parry.http.HttpHeaders;
import io.parry.http.spi.AsciiCase;
import io.parry.http.tracing.TracePropagation;
import io.parry.proxy.ForwardingOptions;
import java.net.InetAddress;

/**
 * The header fields a proxy sends upstream, made in one pass over the received ones: hop-by-hop
 * fields (but {@code TE: trailers}), {@code Expect} and {@code Host} are left out, forwarding fields are kept only from a
 * trusted peer, {@code X-Forwarded-Client-Cert} is never passed on (only the proxy writes it), and the fields that record this hop come last: {@code X-Forwarded-For}, {@code -Proto}
 * and {@code -Host}, RFC 7239 {@code Forwarded}, {@code Via}, then {@code Host}. Each recorded field is
 * one line, this hop appended to the values kept, so an upstream that reads only the first line still
 * sees the whole chain.
 */
final class UpstreamHeaders {
    private static final String X_FORWARDED_FOR = "x-forwarded-for";
    private static final String X_FORWARDED_PROTO = "x-forwarded-proto";
    private static final String X_FORWARDED_HOST = "x-forwarded-host";
    private static final String FORWARDED = "forwarded";
    private static final String VIA = "via";

    private static final int OTHER = 0;
    private static final int KIND_X_FORWARDED_FOR = 1;
    private static final int KIND_X_FORWARDED_PROTO = 2;
    private static final int KIND_X_FORWARDED_HOST = 3;
    private static final int KIND_FORWARDED = 4;
    private static final int KIND_VIA = 5;
    /**
     * {@code Host}, which this hop sets, {@code Expect}, which the gateway's server answers itself, and
     * {@code X-Forwarded-Client-Cert}, which only this proxy may write.
     */
    private static final int REPLACED = 6;

    private UpstreamHeaders() {}

    /**
     * The fields to send upstream for a request received with {@code received}.
     *
     * @param peer the TCP peer's address, or {@code null} when it is unknown
     * @param incomingHost the received {@code Host}, or {@code null}
     * @param protocol the protocol the request was received with, such as {@code HTTP/1.1}
     * @param secure whether it was received over TLS: the recorded protocol is then {@code https}
     * @param host the {@code Host} to send
     */
    static HttpHeaders of(
            HttpHeaders received,
            InetAddress peer,
            String incomingHost,
            String protocol,
            boolean secure,
            String host,
            ForwardingOptions options) {
        // Anything an untrusted client sends in a forwarding field could be forged, so none of it is passed on.
        boolean trusted = options.isTrusted(peer);
        boolean xForwarded = options.xForwarded();
        boolean forwarded = options.forwarded();
        boolean via = !options.via().isEmpty();
        boolean hasConnection = received.contains("connection");
        // Sized for the usual case (the received Host replaced, five recorded fields added): build() need not copy.
        HttpHeaders.Builder out = HttpHeaders.builder(received.size() + 5);
        String forwardedForChain = null;
        String forwardedChain = null;
        String viaChain = null;
        boolean protoKept = false;
        boolean hostKept = false;
        for (int i = 0; i < received.size(); i++) {
            String name = received.name(i);
            String value = received.value(i);
            if (HopByHopHeaders.isHopByHop(received, name, hasConnection)) {
                if (HopByHopHeaders.isTeTrailers(name, value)) {
                    out.add("te", "trailers");
                }
                continue;
            }
            switch (kind(name)) {
                case KIND_X_FORWARDED_FOR:
                    if (!trusted) {
                        continue;
                    }
                    if (xForwarded) {
                        forwardedForChain = ForwardingHeaders.join(forwardedForChain, value);
                        continue;
                    }
                    break;
                case KIND_X_FORWARDED_PROTO:
                    if (!trusted) {
                        continue;
                    }
                    protoKept = true;
                    break;
                case KIND_X_FORWARDED_HOST:
                    if (!trusted) {
                        continue;
                    }
                    hostKept = true;
                    break;
                case KIND_FORWARDED:
                    if (!trusted) {
                        continue;
                    }
                    if (forwarded) {
                        forwardedChain = ForwardingHeaders.join(forwardedChain, value);
                        continue;
                    }
                    break;
                case KIND_VIA:
                    if (via) {
                        viaChain = ForwardingHeaders.join(viaChain, value);
                        continue;
                    }
                    break;
                case REPLACED:
                    continue;
                default:
                    break;
            }
            out.addFrom(received, i);
        }
        // The caller's trace fields name the caller's span, not this call's: the client, called in the
        // request's context, gives each attempt a span of its own, a child of the server's (a tracing
        // bridge's client filter may instead, with ids it records).
        TracePropagation.removeFields(out);
        if (xForwarded || forwarded) {
            PeerFields peerFields = PeerFields.of(peer);
            if (xForwarded) {
                out.add(X_FORWARDED_FOR, ForwardingHeaders.join(forwardedForChain, peerFields.address()));
                if (!protoKept) {
                    out.add(X_FORWARDED_PROTO, secure ? "https" : "http");
                }
                if (incomingHost != null && !hostKept) {
                    out.add(X_FORWARDED_HOST, incomingHost);
                }
            }
            if (forwarded) {
                out.add(
                        FORWARDED,
                        ForwardingHeaders.join(forwardedChain, peerFields.forwardedElement(incomingHost, secure)));
            }
        }
        if (via) {
            out.add(VIA, ForwardingHeaders.join(viaChain, ForwardingHeaders.viaElement(protocol, options)));
        }
        return out.add("host", host).build();
    }

    private static int kind(String name) {
        switch (name.length()) {
            case 3:
                return AsciiCase.equalsIgnoreCase(name, VIA) ? KIND_VIA : OTHER;
            case 4:
                return AsciiCase.equalsIgnoreCase(name, "host") ? REPLACED : OTHER;
            case 6:
                return AsciiCase.equalsIgnoreCase(name, "expect") ? REPLACED : OTHER;
            case 9:
                return AsciiCase.equalsIgnoreCase(name, FORWARDED) ? KIND_FORWARDED : OTHER;
            case 15:
                return AsciiCase.equalsIgnoreCase(name, X_FORWARDED_FOR) ? KIND_X_FORWARDED_FOR : OTHER;
            case 16:
                return AsciiCase.equalsIgnoreCase(name, X_FORWARDED_HOST) ? KIND_X_FORWARDED_HOST : OTHER;
            case 17:
                return AsciiCase.equalsIgnoreCase(name, X_FORWARDED_PROTO) ? KIND_X_FORWARDED_PROTO : OTHER;
            case 23:
                return AsciiCase.equalsIgnoreCase(name, ClientCertificateHeader.NAME) ? REPLACED : OTHER;
            default:
                return OTHER;
        }
    }
}
