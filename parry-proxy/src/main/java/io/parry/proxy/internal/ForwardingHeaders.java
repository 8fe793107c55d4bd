package io.parry.proxy.internal;

import io.parry.http.HttpHeaders;
import io.parry.http.internal.AsciiCase;
import io.parry.proxy.ForwardingOptions;
import java.net.Inet6Address;
import java.net.InetAddress;

/**
 * Writes the fields that record a hop: {@code X-Forwarded-For}, {@code -Proto} and {@code -Host},
 * RFC 7239 {@code Forwarded}, and {@code Via}. Each appends this hop to what a trusted peer sent, as
 * one combined field line, so an upstream that reads only the first line still sees the whole chain.
 */
public final class ForwardingHeaders {
    private static final String X_FORWARDED_FOR = "x-forwarded-for";
    private static final String X_FORWARDED_PROTO = "x-forwarded-proto";
    private static final String X_FORWARDED_HOST = "x-forwarded-host";
    private static final String FORWARDED = "forwarded";
    private static final String VIA = "via";

    /** Parry listens only on plain HTTP so far. */
    private static final String PROTO = "http";

    private ForwardingHeaders() {}

    /**
     * Adds the forwarding fields for a request from {@code peer} with this {@code Host}.
     *
     * @param out the outgoing fields: the incoming ones less hop-by-hop fields
     * @param incoming the fields as received, to read the values {@code out} still holds
     * @param peer the TCP peer's address, or {@code null} when it is unknown
     * @param host the incoming {@code Host}, or {@code null}
     */
    public static void addForwarding(
            HttpHeaders.Builder out, HttpHeaders incoming, InetAddress peer, String host, ForwardingOptions options) {
        if (!options.isTrusted(peer)) {
            // Anything an untrusted client sends here could be forged, so none of it is passed on.
            out.remove(X_FORWARDED_FOR)
                    .remove(X_FORWARDED_PROTO)
                    .remove(X_FORWARDED_HOST)
                    .remove(FORWARDED);
        }
        if (!options.xForwarded() && !options.forwarded()) {
            return;
        }
        String address = addressText(peer);
        if (options.xForwarded()) {
            out.set(X_FORWARDED_FOR, append(out, incoming, X_FORWARDED_FOR, address));
            if (!out.contains(X_FORWARDED_PROTO)) {
                out.add(X_FORWARDED_PROTO, PROTO);
            }
            if (host != null && !out.contains(X_FORWARDED_HOST)) {
                out.add(X_FORWARDED_HOST, host);
            }
        }
        if (options.forwarded()) {
            out.set(FORWARDED, append(out, incoming, FORWARDED, forwardedElement(peer, address, host)));
        }
    }

    /**
     * Appends this proxy to {@code Via} (RFC 9110, section 7.6.3) unless the pseudonym is empty.
     *
     * @param out the outgoing fields: the incoming ones less hop-by-hop fields
     * @param incoming the fields as received, to read the values {@code out} still holds
     * @param protocol the protocol the message was received with, such as {@code HTTP/1.0}
     */
    public static void addVia(
            HttpHeaders.Builder out, HttpHeaders incoming, String protocol, ForwardingOptions options) {
        if (options.via().isEmpty()) {
            return;
        }
        out.set(VIA, append(out, incoming, VIA, receivedProtocol(protocol) + " " + options.via()));
    }

    /** RFC 9110, section 7.6.3: the protocol name is omitted when it is HTTP. */
    static String receivedProtocol(String protocol) {
        if (protocol.equals("HTTP/1.1")) {
            return "1.1";
        }
        if (protocol.equals("HTTP/1.0")) {
            return "1.0";
        }
        return protocol.startsWith("HTTP/") ? protocol.substring("HTTP/".length()) : protocol;
    }

    /**
     * RFC 7239, section 4: {@code for=<peer>;proto=http;host=<host>}, where a value that is not a token
     * (an IPv6 node, a host with a port) is a quoted string.
     */
    static String forwardedElement(InetAddress peer, String address, String host) {
        StringBuilder element = new StringBuilder(48).append("for=");
        if (peer instanceof Inet6Address) {
            // RFC 7239, section 6.1: an IPv6 node is bracketed, so it must be quoted.
            element.append("\"[").append(address).append("]\"");
        } else {
            element.append(address);
        }
        element.append(";proto=").append(PROTO);
        if (host != null) {
            element.append(";host=");
            appendTokenOrQuoted(element, host);
        }
        return element.toString();
    }

    /**
     * The peer's address as text: dotted IPv4 or RFC 5952 IPv6 without a zone, or {@code unknown}
     * (RFC 7239, section 6.3).
     */
    static String addressText(InetAddress peer) {
        if (peer == null) {
            return "unknown";
        }
        if (peer instanceof Inet6Address) {
            return ipv6Text(peer.getAddress());
        }
        return peer.getHostAddress();
    }

    /** The address in RFC 5952 form: lower-case hex, no leading zeros, the longest run of zero groups as ::. */
    static String ipv6Text(byte[] address) {
        int bestStart = -1;
        int bestLength = 1;
        for (int group = 0; group < 8; ) {
            int end = group;
            while (end < 8 && address[2 * end] == 0 && address[2 * end + 1] == 0) {
                end++;
            }
            if (end - group > bestLength) {
                bestStart = group;
                bestLength = end - group;
            }
            group = end == group ? group + 1 : end;
        }
        StringBuilder text = new StringBuilder(39);
        for (int group = 0; group < 8; group++) {
            if (group == bestStart) {
                text.append("::");
                group += bestLength - 1;
                continue;
            }
            if (text.length() > 0 && text.charAt(text.length() - 1) != ':') {
                text.append(':');
            }
            text.append(Integer.toHexString((address[2 * group] & 0xff) << 8 | (address[2 * group + 1] & 0xff)));
        }
        return text.toString();
    }

    /** The value with this hop appended after the values {@code out} kept, comma-separated (RFC 9110, section 5.3). */
    private static String append(HttpHeaders.Builder out, HttpHeaders incoming, String name, String hop) {
        if (!out.contains(name)) {
            return hop;
        }
        StringBuilder joined = null;
        String single = null;
        for (int i = 0; i < incoming.size(); i++) {
            if (AsciiCase.equalsIgnoreCase(incoming.name(i), name)) {
                if (single == null) {
                    single = incoming.value(i);
                } else {
                    if (joined == null) {
                        joined = new StringBuilder(single);
                    }
                    joined.append(", ").append(incoming.value(i));
                }
            }
        }
        if (single == null) {
            return hop;
        }
        return (joined == null ? single : joined.toString()) + ", " + hop;
    }

    private static void appendTokenOrQuoted(StringBuilder out, String value) {
        if (isToken(value)) {
            out.append(value);
            return;
        }
        out.append('"');
        for (int i = 0; i < value.length(); i++) {
            char c = value.charAt(i);
            if (c == '"' || c == '\\') {
                out.append('\\');
            }
            out.append(c);
        }
        out.append('"');
    }

    private static boolean isToken(String value) {
        if (value.isEmpty()) {
            return false;
        }
        for (int i = 0; i < value.length(); i++) {
            char c = value.charAt(i);
            boolean alphanumeric = (c >= '0' && c <= '9') || (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z');
            if (!alphanumeric && "!#$%&'*+-.^_`|~".indexOf(c) < 0) {
                return false;
            }
        }
        return true;
    }
}
