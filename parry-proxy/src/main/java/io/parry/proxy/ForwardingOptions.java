package io.parry.proxy;

import static java.util.Objects.requireNonNull;

import io.parry.http.AddressBlocks;
import java.net.InetAddress;
import java.util.Arrays;
import java.util.List;

/**
 * Which forwarding fields the proxy adds to a request: {@code X-Forwarded-For}, {@code -Proto} and
 * {@code -Host}, RFC 7239 {@code Forwarded}, and {@code Via} on requests and responses.
 *
 * <p>Values that arrive in {@code X-Forwarded-*} and {@code Forwarded} are believed only from a
 * trusted proxy: when the TCP peer is one of {@link #trustedProxies()}, the proxy keeps them and
 * appends its own hop; from any other peer it drops them, whether or not it adds its own, so a
 * client cannot forge its address. No peer is trusted by default. The protocol recorded for this hop
 * is {@code https} for a request received over TLS, else {@code http}.
 *
 * <p>{@code X-Forwarded-Client-Cert} (Envoy's format) carries the client certificate the TLS listener
 * verified when {@link #clientCertificate()} is on; the field is removed from every request a client
 * sends, from trusted proxies too, so an upstream can believe it.
 *
 * <pre>{@code
 * ForwardingOptions forwarding = ForwardingOptions.builder()
 *         .trustedProxies(List.of("10.0.0.0/8", "::1"))
 *         .via("edge-1")
 *         .build();
 * }</pre>
 *
 * <p>Immutable and thread-safe.
 */
public final class ForwardingOptions {
    private static final ForwardingOptions DEFAULTS = builder().build();

    private final AddressBlocks trustedProxies;
    private final boolean xForwarded;
    private final boolean forwarded;
    private final String via;
    private final boolean clientCertificate;

    private ForwardingOptions(AddressBlocks trustedProxies, Builder builder) {
        this.trustedProxies = trustedProxies;
        this.xForwarded = builder.xForwarded;
        this.forwarded = builder.forwarded;
        this.via = builder.via;
        this.clientCertificate = builder.clientCertificate;
    }

    /** The defaults: no trusted proxies, {@code X-Forwarded-*} and {@code Forwarded} added, {@code Via: 1.1 parry}. */
    public static ForwardingOptions ofDefault() {
        return DEFAULTS;
    }

    /** A builder starting from the defaults. */
    public static Builder builder() {
        return new Builder();
    }

    /** A builder starting from these options. */
    public Builder toBuilder() {
        return new Builder()
                .trustedProxies(trustedProxies.entries())
                .xForwarded(xForwarded)
                .forwarded(forwarded)
                .via(via)
                .clientCertificate(clientCertificate);
    }

    /** The trusted proxies' addresses and CIDR blocks, as given; empty by default. */
    public List<String> trustedProxies() {
        return trustedProxies.entries();
    }

    /** The trusted proxies as a set to match addresses against, such as for {@code ClientAddress.behind}. */
    public AddressBlocks trustedProxyBlocks() {
        return trustedProxies;
    }

    /** Whether a peer at this address is a trusted proxy whose forwarding fields are kept; {@code false} for null. */
    public boolean isTrusted(InetAddress address) {
        return trustedProxies.contains(address);
    }

    /** Whether {@code X-Forwarded-For}, {@code X-Forwarded-Proto} and {@code X-Forwarded-Host} are added (default true). */
    public boolean xForwarded() {
        return xForwarded;
    }

    /** Whether an RFC 7239 {@code Forwarded} element is added (default true). */
    public boolean forwarded() {
        return forwarded;
    }

    /**
     * Whether the client certificate a TLS listener verified is sent upstream in {@code
     * X-Forwarded-Client-Cert} (default false).
     */
    public boolean clientCertificate() {
        return clientCertificate;
    }

    /** The pseudonym this proxy gives in {@code Via}, {@code parry} by default; empty when no {@code Via} is sent. */
    public String via() {
        return via;
    }

    @Override
    public String toString() {
        return "ForwardingOptions{trustedProxies=" + trustedProxies.entries() + ", xForwarded=" + xForwarded
                + ", forwarded=" + forwarded + ", via=" + via + ", clientCertificate=" + clientCertificate + "}";
    }

    @Override
    public boolean equals(Object other) {
        return other instanceof ForwardingOptions that && Arrays.equals(values(), that.values());
    }

    @Override
    public int hashCode() {
        return Arrays.hashCode(values());
    }

    /** What makes two of these equal, in one place for {@link #equals} and {@link #hashCode}. */
    private Object[] values() {
        return new Object[] {trustedProxies.entries(), xForwarded, forwarded, via, clientCertificate};
    }

    /** Builds {@link ForwardingOptions}; not thread-safe. */
    public static final class Builder {
        private List<String> trustedProxies = List.of();
        private boolean xForwarded = true;
        private boolean forwarded = true;
        private String via = "parry";
        private boolean clientCertificate;

        private Builder() {}

        /**
         * Sets the peers whose forwarding fields are believed: IPv4 or IPv6 addresses ({@code 10.0.0.7},
         * {@code ::1}) or CIDR blocks ({@code 10.0.0.0/8}, {@code 2001:db8::/32}); none by default.
         * Host names are not accepted: trust must not depend on DNS.
         */
        public Builder trustedProxies(List<String> cidrsOrAddresses) {
            this.trustedProxies = List.copyOf(requireNonNull(cidrsOrAddresses, "cidrsOrAddresses"));
            return this;
        }

        /** Sets whether {@code X-Forwarded-For}, {@code -Proto} and {@code -Host} are added (default true). */
        public Builder xForwarded(boolean enabled) {
            this.xForwarded = enabled;
            return this;
        }

        /** Sets whether an RFC 7239 {@code Forwarded} element is added (default true). */
        public Builder forwarded(boolean enabled) {
            this.forwarded = enabled;
            return this;
        }

        /** Sets the pseudonym given in {@code Via} (default {@code parry}); the empty string sends no {@code Via}. */
        public Builder via(String pseudonym) {
            this.via = requireNonNull(pseudonym, "pseudonym");
            return this;
        }

        /**
         * Sets whether the client certificate a TLS listener verified is sent upstream in {@code
         * X-Forwarded-Client-Cert}: {@code Hash}, {@code Cert} (URL-encoded PEM) and {@code Subject}
         * (default false). The field a client sends is removed either way.
         */
        public Builder clientCertificate(boolean enabled) {
            this.clientCertificate = enabled;
            return this;
        }

        /**
         * The options.
         *
         * @throws IllegalArgumentException if a trusted proxy is not an address or CIDR block, or the
         *     pseudonym is not an HTTP token
         */
        public ForwardingOptions build() {
            // RFC 9110, section 7.6.3: received-by is a pseudonym token (or host[:port], which would reveal more).
            if (!via.isEmpty() && !isToken(via)) {
                throw new IllegalArgumentException(
                        "via: " + via + " (expected: a token such as parry, or empty to send no Via)");
            }
            return new ForwardingOptions(AddressBlocks.parse("trustedProxies", trustedProxies), this);
        }

        private static boolean isToken(String text) {
            for (int i = 0; i < text.length(); i++) {
                char c = text.charAt(i);
                boolean alphanumeric = (c >= '0' && c <= '9') || (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z');
                if (!alphanumeric && "!#$%&'*+-.^_`|~".indexOf(c) < 0) {
                    return false;
                }
            }
            return true;
        }
    }
}
