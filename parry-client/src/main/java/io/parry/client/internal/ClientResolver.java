package io.parry.client.internal;

import io.netty.channel.EventLoop;
import io.netty.resolver.HostsFileEntriesResolver;
import io.netty.resolver.ResolvedAddressTypes;
import io.netty.resolver.dns.DnsNameResolver;
import io.netty.resolver.dns.DnsNameResolverBuilder;
import io.netty.resolver.dns.DnsServerAddressStreamProviders;
import io.netty.resolver.dns.SequentialDnsServerAddressStreamProvider;
import io.netty.util.concurrent.Future;
import io.parry.transport.spi.Transport;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.util.List;

/**
 * Non-blocking name resolution for one event loop: Netty's DNS resolver on a datagram channel of
 * the loop's transport, with its cache (records kept for their TTL) and {@code /etc/hosts}. It asks
 * the given name servers, or the system's when there are none.
 */
final class ClientResolver {
    private final DnsNameResolver dns;

    ClientResolver(EventLoop loop, Transport transport, List<InetSocketAddress> nameServers) {
        DnsNameResolverBuilder builder = new DnsNameResolverBuilder(loop)
                .datagramChannelType(transport.datagramChannelType())
                .socketChannelType(transport.socketChannelType());
        if (!nameServers.isEmpty()) {
            builder.nameServerProvider(new SequentialDnsServerAddressStreamProvider(nameServers));
        }
        this.dns = builder.build();
    }

    /**
     * Reads the system's resolver configuration and hosts file now, on the calling thread, so the
     * first resolution on an event loop does not block it reading files.
     */
    static void preload() {
        DnsServerAddressStreamProviders.platformDefault();
        HostsFileEntriesResolver.DEFAULT.address("localhost", ResolvedAddressTypes.IPV4_PREFERRED);
    }

    /** Resolves the name to one address; the future completes on the resolver's event loop. */
    Future<InetAddress> resolve(String host) {
        return dns.resolve(host);
    }

    void close() {
        dns.close();
    }
}
