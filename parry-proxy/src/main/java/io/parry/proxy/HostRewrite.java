package io.parry.proxy;

import static java.util.Objects.requireNonNull;

import io.parry.client.Endpoint;
import java.util.Objects;

/**
 * Which {@code Host} the upstream sees: the client's ({@link #keep()}, the default, like NGINX's
 * {@code proxy_set_header Host $host}), the endpoint's address, or a fixed name. Immutable and
 * thread-safe.
 *
 * <pre>{@code
 * HostRewrite.keep();                    // Host: shop.example.com, as the client sent it
 * HostRewrite.endpoint();                // Host: 10.0.0.7:8080
 * HostRewrite.fixed("api.internal");     // Host: api.internal
 * }</pre>
 */
public final class HostRewrite {
    private static final HostRewrite KEEP = new HostRewrite(null, false);
    private static final HostRewrite ENDPOINT = new HostRewrite(null, true);

    private final String fixed;
    private final boolean endpoint;

    private HostRewrite(String fixed, boolean endpoint) {
        this.fixed = fixed;
        this.endpoint = endpoint;
    }

    /**
     * The incoming {@code Host}; the endpoint's authority when the request had none (an HTTP/1.0
     * client), as an HTTP/1.1 request must carry one (RFC 9112, section 3.2).
     */
    public static HostRewrite keep() {
        return KEEP;
    }

    /** The endpoint's authority, {@code host:port} with an IPv6 address in brackets. */
    public static HostRewrite endpoint() {
        return ENDPOINT;
    }

    /**
     * This host, with an optional {@code :port}.
     *
     * @throws IllegalArgumentException if it is empty or holds a character a host cannot
     */
    public static HostRewrite fixed(String host) {
        requireNonNull(host, "host");
        if (!isAuthority(host)) {
            throw new IllegalArgumentException(
                    "host: " + host + " (expected: a host with an optional port, such as api.internal or [::1]:8080)");
        }
        return new HostRewrite(host, false);
    }

    /**
     * The {@code Host} value for the upstream request.
     *
     * @param incomingHost the incoming request's {@code Host}, or {@code null} when it had none
     * @param endpoint the endpoint the request is sent to
     */
    public String apply(String incomingHost, Endpoint endpoint) {
        requireNonNull(endpoint, "endpoint");
        if (fixed != null) {
            return fixed;
        }
        if (this.endpoint || incomingHost == null || incomingHost.isEmpty()) {
            return endpoint.authority();
        }
        return incomingHost;
    }

    /** The host of {@link #fixed(String)}; {@code null} for {@link #keep()} and {@link #endpoint()}. */
    public String fixedHost() {
        return fixed;
    }

    @Override
    public boolean equals(Object other) {
        return other instanceof HostRewrite that && endpoint == that.endpoint && Objects.equals(fixed, that.fixed);
    }

    @Override
    public int hashCode() {
        return Objects.hash(fixed, endpoint);
    }

    @Override
    public String toString() {
        return fixed != null
                ? "HostRewrite.fixed(" + fixed + ")"
                : endpoint ? "HostRewrite.endpoint()" : "HostRewrite.keep()";
    }

    /** RFC 3986, section 3.2: reg-name or IP-literal characters, and a colon before the port. */
    private static boolean isAuthority(String host) {
        if (host.isEmpty()) {
            return false;
        }
        for (int i = 0; i < host.length(); i++) {
            char c = host.charAt(i);
            boolean alphanumeric = (c >= '0' && c <= '9') || (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z');
            if (!alphanumeric && "-._~!$&'()*+,;=:[]%".indexOf(c) < 0) {
                return false;
            }
        }
        return true;
    }
}
