package io.parry.protection.internal;

import io.parry.http.HttpHeaders;
import java.net.InetAddress;
import java.net.InetSocketAddress;

/**
 * Finds the client's address behind trusted proxies: the peer, or, when the peer is a trusted proxy,
 * the rightmost {@code X-Forwarded-For} entry that is not one (the entries left of it were written by
 * hosts nobody vouches for). Allocates only the bytes of the addresses it reads.
 */
public final class ClientAddress {
    private static final String X_FORWARDED_FOR = "x-forwarded-for";

    private ClientAddress() {}

    /**
     * The client's address bytes (IPv4 as four bytes, IPv4-mapped IPv6 included), or {@code null} when a
     * trusted proxy passed on an entry that is not a numeric address.
     */
    public static byte[] of(InetSocketAddress peer, HttpHeaders headers, AddressBlocks trustedProxies) {
        byte[] address = peerBytes(peer);
        if (trustedProxies.isEmpty() || !trustedProxies.contains(address)) {
            return address;
        }
        int fields = headers.size();
        for (int field = fields - 1; field >= 0; field--) {
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
                address = AddressBlocks.address(entry);
                if (address == null || !trustedProxies.contains(address)) {
                    return address;
                }
            }
        }
        return address;
    }

    private static byte[] peerBytes(InetSocketAddress peer) {
        InetAddress address = peer == null ? null : peer.getAddress();
        if (address == null) {
            return null;
        }
        byte[] bytes = address.getAddress();
        return bytes.length == 16 ? AddressBlocks.address(address.getHostAddress()) : bytes;
    }
}
