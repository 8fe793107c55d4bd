package io.parry.gateway.internal.config;

import io.parry.proxy.ForwardingOptions;
import java.util.List;

/**
 * Which forwarding headers proxied requests get (YAML {@code forwarding}), as in
 * {@link ForwardingOptions}.
 *
 * @param trustedProxies addresses and CIDR blocks whose forwarding headers are believed (default none)
 * @param via the pseudonym sent in {@code Via}, empty for none (default {@code parry})
 * @param xForwarded whether {@code X-Forwarded-*} fields are added (default true)
 * @param forwarded whether an RFC 7239 {@code Forwarded} element is added (default true)
 */
public record ForwardingConfig(List<String> trustedProxies, String via, boolean xForwarded, boolean forwarded) {
    /** The defaults, those of {@link ForwardingOptions#ofDefault()}. */
    public static final ForwardingConfig DEFAULT = new ForwardingConfig(List.of(), "parry", true, true);

    /** Copies the list. */
    public ForwardingConfig {
        trustedProxies = List.copyOf(trustedProxies);
    }

    /** These settings as proxy options. */
    public ForwardingOptions toOptions() {
        return ForwardingOptions.builder()
                .trustedProxies(trustedProxies)
                .via(via)
                .xForwarded(xForwarded)
                .forwarded(forwarded)
                .build();
    }
}
