package io.parry.proxy.internal;

import io.parry.http.HttpHeaders;
import io.parry.http.HttpResponse;
import io.parry.proxy.ForwardingOptions;
import io.parry.proxy.HeaderRules;

/**
 * Makes the response a proxy sends downstream from the one the upstream returned, sharing the body. A
 * pure function that neither blocks nor locks, for the event loop.
 */
public final class DownstreamResponses {
    /** The client speaks HTTP/1.1 to upstreams. */
    private static final String UPSTREAM_PROTOCOL = "HTTP/1.1";

    private DownstreamResponses() {}

    /**
     * The response to send downstream: hop-by-hop fields removed, this proxy appended to {@code Via},
     * then the response header rules applied. The status and body are the upstream's, not copied; the
     * same instance is returned when nothing changes.
     */
    public static HttpResponse prepare(HttpResponse upstream, HeaderRules responseRules, ForwardingOptions forwarding) {
        HttpHeaders received = upstream.headers();
        HttpHeaders headers;
        if (forwarding.via().isEmpty()) {
            headers = HopByHopHeaders.remove(received);
        } else {
            HttpHeaders.Builder out = HopByHopHeaders.strip(received);
            ForwardingHeaders.addVia(out, received, UPSTREAM_PROTOCOL, forwarding);
            headers = out.build();
        }
        headers = responseRules.apply(headers);
        return headers == received ? upstream : HttpResponse.of(upstream.status(), headers, upstream.body());
    }
}
