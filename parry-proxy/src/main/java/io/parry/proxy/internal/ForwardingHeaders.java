package io.parry.proxy.internal;

import io.parry.proxy.ForwardingOptions;
import java.net.Inet6Address;
import java.net.InetAddress;

/**
 * The values that record a hop: the peer's address as {@code X-Forwarded-For} and RFC 7239 {@code
 * Forwarded} write it, a {@code Forwarded} element, and a {@code Via} element; and how each is
 * appended to what earlier hops wrote.
 */
final class ForwardingHeaders {
    /**
     * The elements for the last {@code Via} name asked for: a process usually has one, so every request in
     * and response out finds them made. Threads may race to replace it; each sees a whole record either way.
     */
    private static ViaElements lastVia = ViaElements.of("");

    private ForwardingHeaders() {}

    /** {@code value} after the values before it ({@code null} for none), comma-separated (RFC 9110, 5.3). */
    static String join(String before, String value) {
        return before == null ? value : before + ", " + value;
    }

    /** This proxy's {@code Via} element (RFC 9110, section 7.6.3) for a message received with {@code protocol}. */
    static String viaElement(String protocol, ForwardingOptions options) {
        String name = options.via();
        ViaElements elements = lastVia;
        if (!elements.name().equals(name)) {
            elements = ViaElements.of(name);
            lastVia = elements;
        }
        if (protocol.equals("HTTP/1.1")) {
            return elements.http11();
        }
        if (protocol.equals("HTTP/2.0") || protocol.equals("HTTP/2")) {
            return elements.http2();
        }
        return protocol.equals("HTTP/1.0") ? elements.http10() : receivedProtocol(protocol) + " " + name;
    }

    /**
     * RFC 9110, section 7.6.3: the protocol name is omitted when it is HTTP. HTTP/2's version is {@code 2}
     * (RFC 9113, section 3), though the server names its requests' protocol {@code HTTP/2.0}.
     */
    static String receivedProtocol(String protocol) {
        if (protocol.equals("HTTP/1.1")) {
            return "1.1";
        }
        if (protocol.equals("HTTP/1.0")) {
            return "1.0";
        }
        if (protocol.equals("HTTP/2.0")) {
            return "2";
        }
        return protocol.startsWith("HTTP/") ? protocol.substring("HTTP/".length()) : protocol;
    }

    /**
     * RFC 7239, section 4: {@code for=<peer>;proto=http;host=<host>} ({@code https} when received over
     * TLS), where a value that is not a token (an IPv6 node, a host with a port) is a quoted string.
     */
    static String forwardedElement(InetAddress peer, String address, String host, boolean secure) {
        StringBuilder element = new StringBuilder(48).append("for=");
        if (peer instanceof Inet6Address) {
            // RFC 7239, section 6.1: an IPv6 node is bracketed, so it must be quoted.
            element.append("\"[").append(address).append("]\"");
        } else {
            element.append(address);
        }
        element.append(";proto=").append(secure ? "https" : "http");
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

    /** The {@code Via} elements of one pseudonym for the protocols a message is received with. */
    private record ViaElements(String name, String http10, String http11, String http2) {
        static ViaElements of(String name) {
            return new ViaElements(name, "1.0 " + name, "1.1 " + name, "2 " + name);
        }
    }
}
