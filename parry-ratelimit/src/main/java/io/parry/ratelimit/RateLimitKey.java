package io.parry.ratelimit;

import static java.util.Objects.requireNonNull;

import io.parry.http.AddressBlocks;
import io.parry.http.ClientAddress;
import io.parry.http.HttpRequest;
import io.parry.server.RequestContext;
import java.net.InetAddress;
import java.util.List;

/**
 * Which bucket a request takes its token from: the client's address, a header, the route, a verified
 * claim, or several of these at once. A key is a function of the request and its context, so any fact
 * a filter before the limiter put there can key a limit:
 *
 * <pre>{@code
 * RateLimitKey perUser = (ctx, request) -> claims(ctx).subject();      // a claim an auth filter verified
 * RateLimitKey perClientAndApi = RateLimitKey.all(RateLimitKey.clientAddress(), RateLimitKey.header("X-Api-Key"));
 * }</pre>
 *
 * <p>Called on the request's event loop for every request the limiter sees; must be quick and must not
 * block. A key that returns {@code null} lets the request pass without taking a token.
 */
@FunctionalInterface
public interface RateLimitKey {

    /** The bucket's name for this request, or {@code null} to let it pass unlimited. */
    String key(RequestContext ctx, HttpRequest request);

    /** The TCP peer's address: right when clients connect directly; behind a proxy, use {@link #clientAddress(AddressBlocks)}. */
    static RateLimitKey clientAddress() {
        return clientAddress(AddressBlocks.none());
    }

    /**
     * The client's address after trusted proxies, as {@link ClientAddress#behind} finds it: when the TCP
     * peer is a trusted proxy, the nearest address in {@code X-Forwarded-For} that is not one; otherwise
     * the peer. Entries left of the first untrusted one were written by the client and are never
     * believed; requests whose client is unknown (a trusted proxy passed on an entry that is not an
     * address) share one bucket, {@code unknown}, so made-up entries cannot open fresh buckets.
     *
     * @param trustedProxies your proxies, such as {@code ForwardingOptions.trustedProxyBlocks()} of {@code
     *     parry-proxy}
     */
    static RateLimitKey clientAddress(AddressBlocks trustedProxies) {
        requireNonNull(trustedProxies, "trustedProxies");
        return (ctx, request) -> text(ClientAddress.behind(trustedProxies, ctx.remoteAddress(), request.headers()));
    }

    /**
     * The first value of a request header, such as an API key; requests without it share one bucket, so
     * leaving the header out does not escape the limit.
     */
    static RateLimitKey header(String name) {
        requireNonNull(name, "name");
        return (ctx, request) -> {
            String value = request.headers().get(name);
            return value == null ? "" : value;
        };
    }

    /** One bucket for every request the limiter sees: a limit on the route (or server) as a whole. */
    static RateLimitKey route() {
        return (ctx, request) -> "";
    }

    /**
     * A bucket per combination of the parts' keys, such as a client on one API key; a request any part
     * lets pass unlimited passes unlimited.
     */
    static RateLimitKey all(RateLimitKey... parts) {
        List<RateLimitKey> keys = List.of(parts);
        if (keys.isEmpty()) {
            throw new IllegalArgumentException("parts: none (expected: at least one key)");
        }
        if (keys.size() == 1) {
            return keys.get(0);
        }
        return (ctx, request) -> {
            StringBuilder joined = new StringBuilder(64);
            for (int i = 0; i < keys.size(); i++) {
                String part = keys.get(i).key(ctx, request);
                if (part == null) {
                    return null;
                }
                // A line feed never occurs in a field value (RFC 9110, section 5.5) nor in an address.
                joined.append(part).append('\n');
            }
            return joined.toString();
        };
    }

    /** The address as text; {@code unknown} for a client that is unknown or a connection that is not TCP. */
    private static String text(InetAddress address) {
        return address == null ? "unknown" : address.getHostAddress();
    }
}
