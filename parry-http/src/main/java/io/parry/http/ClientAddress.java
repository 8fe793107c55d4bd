package io.parry.http;

import static java.util.Objects.requireNonNull;

import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.UnknownHostException;

/**
 * Finds the client's address behind trusted proxies, for IP rules, rate limits and logs.
 *
 * <p>The client is the TCP peer, unless the peer is a trusted proxy: then it is the rightmost {@code
 * X-Forwarded-For} entry that is not a trusted proxy, read from the last field to the first, as each
 * proxy appends the peer it saw (entries left of it were written by hosts nobody vouches for). When
 * every entry is a trusted proxy, the leftmost is as near the client as can be seen. An entry that is
 * not a numeric address, where that rightmost untrusted entry should be, makes the client unknown
 * rather than letting its text stand for an address. Entries are parsed without DNS.
 *
 * <p>Pure and thread-safe; allocates only the entries it reads and the address it returns.
 */
public final class ClientAddress {
    private static final String X_FORWARDED_FOR = "x-forwarded-for";

    private ClientAddress() {}

    /**
     * The client's address, or {@code null} when it is unknown: a peer without an address, or a trusted
     * proxy that passed on an entry that is not a numeric address.
     *
     * <pre>{@code
     * InetAddress client = ClientAddress.behind(trustedProxies, ctx.remoteAddress(), request.headers());
     * }</pre>
     */
    public static InetAddress behind(AddressBlocks trustedProxies, InetSocketAddress peer, HttpHeaders headers) {
        requireNonNull(trustedProxies, "trustedProxies");
        requireNonNull(headers, "headers");
        InetAddress address = peer == null ? null : peer.getAddress();
        if (!trustedProxies.contains(address)) {
            return address;
        }
        byte[] hop = null;
        for (int field = headers.size() - 1; field >= 0; field--) {
            if (!headers.name(field).equalsIgnoreCase(X_FORWARDED_FOR)) {
                continue;
            }
            String value = headers.value(field);
            int end = value.length();
            while (end >= 0) {
                int comma = value.lastIndexOf(',', end - 1);
                String entry = value.substring(comma + 1, end).trim();
                end = comma;
                if (entry.isEmpty()) {
                    continue;
                }
                hop = AddressBlocks.address(entry);
                if (hop == null) {
                    return null;
                }
                if (!trustedProxies.contains(hop)) {
                    return inetAddress(hop);
                }
            }
        }
        return hop == null ? address : inetAddress(hop);
    }

    private static InetAddress inetAddress(byte[] bytes) {
        try {
            return InetAddress.getByAddress(bytes);
        } catch (UnknownHostException e) {
            throw new IllegalStateException("address of " + bytes.length + " bytes", e);
        }
    }
}
