package io.parry.proxy.internal;

import io.parry.http.HttpHeaders;
import io.parry.http.HttpResponse;
import io.parry.http.spi.AsciiCase;
import io.parry.proxy.ForwardingOptions;
import io.parry.proxy.HeaderRules;

/**
 * Makes the response a proxy sends downstream from the one the upstream returned, sharing the body. A
 * pure function that neither blocks nor locks, for the event loop.
 */
public final class DownstreamResponses {
    private DownstreamResponses() {}

    /** As {@link #prepare(HttpResponse, String, HeaderRules, ForwardingOptions)} for a response received over HTTP/1.1. */
    public static HttpResponse prepare(HttpResponse upstream, HeaderRules responseRules, ForwardingOptions forwarding) {
        return prepare(upstream, "HTTP/1.1", responseRules, forwarding);
    }

    /**
     * The response to send downstream: hop-by-hop fields removed, this proxy appended to {@code Via} with the
     * protocol the response was received with ({@code HTTP/1.1}, {@code HTTP/2}), then the response header rules
     * applied. The status and body are the upstream's, not copied; the same instance is returned when nothing
     * changes.
     */
    public static HttpResponse prepare(
            HttpResponse upstream, String protocol, HeaderRules responseRules, ForwardingOptions forwarding) {
        HttpHeaders received = upstream.headers();
        HttpHeaders headers = forwarding.via().isEmpty()
                ? HopByHopHeaders.remove(received)
                : withVia(received, ForwardingHeaders.viaElement(protocol, forwarding));
        headers = responseRules.apply(headers);
        return headers == received ? upstream : HttpResponse.of(upstream.status(), headers, upstream.body());
    }

    /** The fields less hop-by-hop ones, in one pass, with {@code Via} last as one line ending in this hop. */
    private static HttpHeaders withVia(HttpHeaders received, String hop) {
        boolean hasConnection = received.contains("connection");
        // Sized for the usual case, no hop-by-hop field and no Via before this hop's, so build() need not copy.
        HttpHeaders.Builder out = HttpHeaders.builder(received.size() + 1);
        String chain = null;
        for (int i = 0; i < received.size(); i++) {
            String name = received.name(i);
            if (HopByHopHeaders.isHopByHop(received, name, hasConnection)) {
                continue;
            }
            if (AsciiCase.equalsIgnoreCase(name, "via")) {
                chain = ForwardingHeaders.join(chain, received.value(i));
            } else {
                out.addFrom(received, i);
            }
        }
        return out.add("via", ForwardingHeaders.join(chain, hop)).build();
    }
}
