package io.parry.proxy.internal;

import io.parry.client.Endpoint;
import io.parry.http.HttpHeaders;
import io.parry.http.HttpRequest;
import io.parry.proxy.ForwardingOptions;
import io.parry.proxy.HeaderRules;
import io.parry.proxy.HostRewrite;
import io.parry.proxy.PathRewrite;
import io.parry.server.RequestContext;
import io.parry.server.TlsInfo;
import java.net.InetSocketAddress;

/**
 * Makes the request a proxy sends upstream from the one it received, sharing the body. A pure function
 * that neither blocks nor locks, for the event loop.
 */
public final class UpstreamRequests {
    private UpstreamRequests() {}

    /**
     * The request to send upstream: hop-by-hop, trace and {@code Expect} fields removed, forwarding
     * fields and {@code Via} added ({@code X-Forwarded-Client-Cert} with the verified client certificate
     * when {@link ForwardingOptions#clientCertificate()} is on; never the client's own), {@code Host} and the path rewritten (see {@link UpstreamHeaders}),
     * then the request header rules applied, so rules have the last word. The body is the incoming one,
     * not copied; the target is always origin-form. The gateway's server answers {@code Expect} itself
     * (100 Continue once the proxy reads the body, RFC 9110, section 10.1.1), and the client streams the
     * body without waiting for the upstream's interim response.
     *
     * @throws IllegalArgumentException if a path template needs a parameter the route did not match
     */
    public static HttpRequest prepare(
            HttpRequest incoming,
            RequestContext ctx,
            Endpoint endpoint,
            PathRewrite path,
            HostRewrite host,
            HeaderRules requestRules,
            ForwardingOptions forwarding) {
        String incomingHost = incoming.authority();
        InetSocketAddress peer = ctx.remoteAddress();
        TlsInfo tls = ctx.tls().orElse(null);
        HttpHeaders headers = UpstreamHeaders.of(
                incoming.headers(),
                peer == null ? null : peer.getAddress(),
                incomingHost,
                ctx.protocol(),
                tls != null,
                host.apply(incomingHost, endpoint),
                forwarding);
        if (forwarding.clientCertificate()
                && tls != null
                && !tls.peerCertificates().isEmpty()) {
            headers = headers.with(
                    ClientCertificateHeader.NAME,
                    ClientCertificateHeader.of(tls.peerCertificates().get(0)));
        }
        HttpRequest upstream = incoming.withHeaders(requestRules.apply(headers));
        String target = upstreamTarget(incoming, path, ctx);
        return target.equals(incoming.target()) ? upstream : upstream.withTarget(target);
    }

    private static String upstreamTarget(HttpRequest incoming, PathRewrite path, RequestContext ctx) {
        if (incoming.path().equals("*")) {
            // RFC 9112, section 3.2.4: OPTIONS * asks about the server as a whole; there is no path to rewrite.
            return incoming.target();
        }
        return path.apply(originForm(incoming), ctx.pathParams());
    }

    /**
     * The normalised path and the query: what the router matched, and origin-form even when the
     * request came in absolute-form (RFC 9112, section 3.2.2). The received target is reused when it
     * already is exactly that.
     */
    private static String originForm(HttpRequest incoming) {
        String target = incoming.target();
        String path = incoming.path();
        String query = incoming.query();
        int expectedLength = query.isEmpty() ? path.length() : path.length() + 1 + query.length();
        if (target.length() == expectedLength && target.startsWith(path) && target.endsWith(query)) {
            return target;
        }
        return query.isEmpty() ? path : path + "?" + query;
    }
}
